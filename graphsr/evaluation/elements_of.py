"""Any assessments and runs as element assessments and runs, for the commands that place them on a collection's
summary (``view``, ``coverage``, ``fidelity``): read through :class:`~graphsr.evaluation.inputs.Inputs` as
``graphsr eval`` reads them, passage inputs resolved in the documents they name."""

from __future__ import annotations

from .inputs import Inputs, Options, _docids, _is_path, read_chunks

__all__ = ["as_elements"]


def as_elements(inputs: Inputs, documents_of, options: Options = Options()) -> tuple:
    """The assessments and runs of ``inputs`` as element assessments and runs, whatever their formats, for the
    commands that place them on a collection's summary: passage inputs (FOL qrels, span and chunk judgments;
    passage, chunk and XML runs) resolved in the documents they name (``documents_of(docids)`` gives them: a
    passage judged relevant makes relevant the elements it highlights, a retrieved passage is the smallest element
    containing it -- as SR and ESR score passage inputs).  ``(qrels or None, runs)``.

    Raises
    ------
    GraphsrInputError
        An input that cannot be read, or names a document the collection does not hold.
    """
    from ..core.kinds import PASSAGES
    from ..io import formats
    from ..measures.fol.convert import element_qrels, element_run

    chunk_map = read_chunks(inputs.chunks, inputs.qrels, inputs.runs, inputs.qrels_format, inputs.run_format)
    qrels = inputs.assessments(options.wording, chunk_map) if inputs.qrels is not None else None
    passage_qrels = qrels if qrels is not None and qrels.kind == PASSAGES else None
    runs = []
    for path in inputs.runs:
        if not _is_path(path):
            from ..io.frames import as_run

            runs.append(as_run(path, vocabulary=qrels))
            continue
        fmt = formats.detect(path, formats.RUN, inputs.run_format, chunk_map is not None)
        if fmt.name == "element":
            runs.append(fmt.read(str(path), formats.Given(vocab=None if passage_qrels is not None else qrels)))
            continue
        documents = None
        if fmt.name == "xml":
            from ..io.fol import submission_files

            documents = documents_of(set(submission_files(path)))
        vocab = passage_qrels.vocab if passage_qrels is not None else None
        given = formats.Given(chunks=chunk_map, vocab=vocab, documents=documents, unknown=options.unknown)
        runs.append(fmt.read(str(path), given))
    passages = [r for r in runs if r.kind == PASSAGES]
    if passage_qrels is None and not passages:
        return qrels, runs
    wanted = set().union(*(_docids(r) for r in passages))
    if passage_qrels is not None:
        wanted |= set(passage_qrels.docid.tolist())
    documents = documents_of(wanted)
    if passage_qrels is not None:
        qrels = element_qrels(passage_qrels, documents)
    return qrels, [element_run(r, documents, options.order)[0] if r.kind == PASSAGES else r for r in runs]
