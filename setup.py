"""Build of the optional C extensions; everything else is in pyproject.toml.

graphsr.io._folscan reads well-formed passage runs and FOL qrels in one pass
(the line-by-line readers explain anything it declines, and read everything
when it is missing); it needs only the Python and numpy headers.

The walker (graphsr.io._walk) reads trees that lxml has parsed through lxml's public C API, so it
compiles against the headers lxml ships (lxml.get_include()), and returns
numpy arrays (numpy.get_include()).  It is
optional: if it cannot be built, graphsr uses the pure-Python walker, which
computes the same arrays (tests check both agree), only slower.

graphsr.measures.esr._survival multiplies ESR's survival along each
assessment's events in one pass, and for element runs scored with a learned
model's transition table walks every (assessment, result) pair in one pass,
summing the expectations by cut-off; without it numpy computes the same with
cumulated logarithms and arrays per pair.

graphsr.core._ties puts the tied lines of a TREC run in trec_eval's order
(document name descending within a topic and score), comparing the names of
the tied lines only; without it every name is ordered with numpy.

graphsr.store._paths finds the elements a navigation log's (document, XPath) pairs name in the documents'
stored shapes, walking each document once; without it the XPath of every element of those documents is
written out in Python and looked up.

graphsr.store._rows writes the literal text of a study's routes for the statements that create them (the text
graphsr.store._falkor_params writes for the same lists, which it is tested against); without it Python
writes it, value by value.
"""

from setuptools import Extension, setup


#: Every extension is compiled with all warnings on (tests/test_c_extensions.py compiles them with -Werror).
FLAGS = ["-O2", "-Wall"]


def extensions():
    try:
        import lxml
        import numpy
    except ImportError:  # pragma: no cover - both are build requirements
        return []
    return [Extension("graphsr.io._walk", ["graphsr/io/_walk.c"],
                      include_dirs=[*lxml.get_include(), numpy.get_include()],
                      extra_compile_args=FLAGS, optional=True),
            Extension("graphsr.io._folscan", ["graphsr/io/_folscan.c"], include_dirs=[numpy.get_include()],
                      extra_compile_args=FLAGS, optional=True),
            Extension("graphsr.measures.esr._survival", ["graphsr/measures/esr/_survival.c"],
                      include_dirs=[numpy.get_include()], extra_compile_args=FLAGS, optional=True),
            Extension("graphsr.core._ties", ["graphsr/core/_ties.c"], include_dirs=[numpy.get_include()],
                      extra_compile_args=FLAGS, optional=True),
            Extension("graphsr.store._paths", ["graphsr/store/_paths.c"], include_dirs=[numpy.get_include()],
                      extra_compile_args=FLAGS, optional=True),
            Extension("graphsr.store._rows", ["graphsr/store/_rows.c"], extra_compile_args=FLAGS, optional=True)]


setup(ext_modules=extensions())
