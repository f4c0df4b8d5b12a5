"""The ``graphsr`` command: a thin shell over the library.

Each subcommand is a module with ``add_arguments(parser)`` and
``run(args) -> int``; the table below is the whole command set.  Errors in
the user's input print one line on stderr and exit with code 2; results go
to stdout; a closed pipe (``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys

from ..errors import GraphsrError, GraphsrInputError, StoreError

__all__ = ["main", "COMMANDS"]

COMMANDS = {
    "eval": ("graphsr.cli.eval_cmd", "score runs against assessments (trec_eval-style output)"),
    "summary": ("graphsr.cli.summary_cmd", "build a structural summary of a collection and print it"),
    "partitions": ("graphsr.cli.partitions_cmd", "list a collection's summary partitions: size, pi, edges"),
    "partition": ("graphsr.cli.partition_cmd", "one summary partition: its elements and its neighbours"),
    "coverage": (
        "graphsr.cli.coverage_cmd",
        "per run and partition: retrieved, relevant, relevant retrieved and reachable",
    ),
    "store": ("graphsr.cli.store_cmd", "load collections, summaries and models into the graph store; list them"),
    "routes": ("graphsr.cli.routes_cmd", "load navigation logs into the graph store"),
    "model": ("graphsr.cli.model_cmd", "build and list stored navigation models"),
    "simulate-routes": ("graphsr.cli.simulate_cmd", "write a simulated navigation log (seeded random walks)"),
    "measures": ("graphsr.cli.measures_cmd", "list the measures: names, cut-offs, parameters, definitions"),
    "compare": (
        "graphsr.cli.compare_cmd",
        "significance tests between runs from a score table (t, randomization, bootstrap; Holm, BH)",
    ),
    "perturb": ("graphsr.cli.perturb_cmd", "write the five systematic perturbations of a run (SR paper 7.1)"),
    "fidelity": ("graphsr.cli.fidelity_cmd", "test a measure's fidelity on perturbed runs (SR paper 7.3)"),
    "sensitivity": (
        "graphsr.cli.sensitivity_cmd",
        "one measure under several navigation models: means and rank agreement between the models",
    ),
    "view": (
        "graphsr.cli.view_cmd",
        "an interactive HTML view of a summary, its partitions and where runs fall (or its data: JSON, GraphML, GEXF)",
    ),
    "judge": (
        "graphsr.cli.judge_cmd",
        "fill holes in judgments with any judge: export unjudged results, judge them, merge them back",
    ),
    "report": ("graphsr.cli.report_cmd", "write an HTML report of score tables: tables, significance, plots"),
    "agree": ("graphsr.cli.agree_cmd", "rank agreement of two measures or two models (Kendall, Spearman, tau_AP)"),
    "demo": ("graphsr.cli.demo_cmd", "run the whole pipeline on the bundled sample data"),
    "trec_eval": ("graphsr.cli.trec_eval_cmd", "trec_eval 9.0.8's command line and output, byte for byte"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line parser; only ``command``'s module is imported and only its parser made (every command's
    if None; ``""``: each command's name and help alone, for the top-level help), so that starting one command
    costs only what that command needs."""
    from .. import __version__

    formatter = _formatter()
    parser = _Parser(
        prog="graphsr",
        formatter_class=formatter,
        description="Navigation-aware evaluation of structured document retrieval (SR, SRP, ESR, and the "
        "official INEX measures).",
    )
    parser.add_argument("--version", action="version", version=f"graphsr {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        if command is not None and name != command:
            if not command:  # no command named: the top-level help lists them all
                sub.add_parser(name, help=help_text, formatter_class=formatter)
            continue  # (a command named: no other command's parser is read)
        mod = importlib.import_module(module)
        p = sub.add_parser(
            name, help=help_text, description=_first_paragraph(mod.__doc__ or ""), formatter_class=formatter
        )
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are one line as every other graphsr error is (exit 2), pointing to
    ``-h`` rather than printing the usage; the subcommands' parsers are of this class too."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", _SubParsers)

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} -h')\n")


class _SubParsers(argparse._SubParsersAction):
    def __init__(self, *args, **kwargs):
        kwargs["parser_class"] = _Parser
        super().__init__(*args, **kwargs)


def _formatter():
    """argparse's help formatter at the terminal's width (``COLUMNS``, else the terminal, else 80), as argparse
    finds it -- but without importing :mod:`shutil` (and the compression modules it imports) into every
    command: argparse makes a formatter for each option it is given, asking shutil for the width if not told."""
    import functools

    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return functools.partial(argparse.HelpFormatter, width=(columns or 80) - 2)


def _first_paragraph(doc: str) -> str:
    """A command module's docstring up to its first blank line, as one paragraph (``--help``'s
    description; argparse rewraps it)."""
    return " ".join(doc.strip().split("\n\n")[0].split())


def _command_of(argv: list[str]) -> str:
    """The subcommand named in ``argv`` ("" if none: only the top-level parser is needed)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in COMMANDS else ""
    return ""


#: Variables that set how many threads numpy's BLAS starts; if the user sets none, a command uses one.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _one_blas_thread() -> None:
    """Ask numpy's BLAS for one thread, unless the user chose a number.

    graphsr's linear algebra is small matrices (a summary's partitions, a document's elements), where a
    BLAS thread pool gains nothing; but OpenBLAS starts its pool when numpy is imported and its idle
    threads spin for a while, taking the core (or the other half of a hyperthreaded core) that reading
    the input needs: ~15 % of a short ``eval`` on a 2-core machine.  Only effective before numpy is
    imported, i.e. when the command line starts the process.
    """
    if not any(os.environ.get(name) for name in _BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if argv is not None:
        return _main(list(argv))
    from .._interop import standalone

    standalone()  # (the process's own command line: its measures need not be ir_measures' objects)
    import signal

    signal.signal(signal.SIGTERM, _terminate)  # as an interrupt: what is half-written is removed on the way out
    sys.stdout = _Output(sys.stdout)
    try:  # the process's own command line: it ends when the command does
        return _main(sys.argv[1:])
    finally:
        import gc

        gc.freeze()  # what is still alive goes with the process, not through a last full collection (~4 ms)


class Terminated(BaseException):
    """SIGTERM, raised where the process is, so that every ``finally`` and cleanup runs (a partial file is
    removed, the store left) before the process exits 143."""


def _terminate(signum, frame):
    raise Terminated()


class _Output:
    """The process's standard output, marking the OSError a write or flush of it raises (``graphsr_output``), so
    that a full device is told apart from a file that could not be written."""

    def __init__(self, raw):
        self._raw = raw

    def write(self, text):
        try:
            return self._raw.write(text)
        except OSError as exc:
            exc.graphsr_output = True
            raise

    def flush(self):
        try:
            return self._raw.flush()
        except OSError as exc:
            exc.graphsr_output = True
            raise

    def __getattr__(self, name):
        return getattr(self._raw, name)


def _one_line(exc: BaseException) -> str:
    """An error's message on one line (a server's or a library's message may hold line breaks)."""
    return " ".join(str(exc).split())


def _stdout_to_devnull() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - a stdout with no descriptor (tests)
        pass


def _main(argv: list[str]) -> int:
    if "numpy" not in sys.modules:
        _one_blas_thread()
    if argv[:1] == ["trec_eval"]:  # trec_eval's own options, as trec_eval reads them (not argparse's)
        from .trec_eval_cmd import main as trec_eval

        return _guarded(lambda: trec_eval(argv[1:]))
    parser = build_parser(_command_of(argv))
    args = parser.parse_args(argv)
    args._argv = list(argv)  # (the command's words, for the provenance of what it writes)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2

    def command() -> int:
        from .._bulk import bulk
        from .dotenv import apply_dotenv

        apply_dotenv()
        with bulk():
            return args._run(args)

    return _guarded(command)


def _guarded(command) -> int:
    """Run ``command``; what it raises becomes one line on stderr and an exit status (the same for every
    command, ``trec_eval`` included: a closed pipe, an interrupt, SIGTERM)."""
    try:
        code = command()
        sys.stdout.flush()  # a write error of the output (a full device) is this command's, not the exit's
        return code
    except GraphsrInputError as exc:
        print(f"graphsr: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"graphsr: store error: {_one_line(exc)}", file=sys.stderr)
        return 3
    except GraphsrError as exc:  # e.g. a steady state that does not converge
        print(f"graphsr: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        _stdout_to_devnull()
        return 0
    except MemoryError:
        print("graphsr: error: out of memory (an input larger than this machine can hold?)", file=sys.stderr)
        return 3
    except OSError as exc:  # the system refused: a full device (stdout or a file), an I/O error
        if exc.errno == errno.EPIPE:
            _stdout_to_devnull()
            return 0
        where = f" ({exc.filename})" if exc.filename else ""
        if getattr(exc, "graphsr_output", False):  # the output itself failed: nothing is written again at exit
            _stdout_to_devnull()
            where = " (writing the output)"
        print(f"graphsr: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("graphsr: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a defect of graphsr's: one line, the traceback on demand
        if os.environ.get("GRAPHSR_TRACEBACK"):
            raise
        print(
            f"graphsr: internal error: {type(exc).__name__}: {_one_line(exc)} (a defect of graphsr: please "
            "report it; GRAPHSR_TRACEBACK=1 shows where it happened)",
            file=sys.stderr,
        )
        return 1
    except Terminated:
        print("graphsr: terminated", file=sys.stderr)
        return 143


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
