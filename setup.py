"""Build of the optional C walker (graphsr.io._walk); everything else is in pyproject.toml.

The walker reads trees that lxml has parsed through lxml's public C API, so it
compiles against the headers lxml ships (lxml.get_include()), and returns
numpy arrays (numpy.get_include()).  It is
optional: if it cannot be built, graphsr uses the pure-Python walker, which
computes the same arrays (tests check both agree), only slower.
"""

from setuptools import Extension, setup


def extensions():
    try:
        import lxml
        import numpy
    except ImportError:  # pragma: no cover - both are build requirements
        return []
    return [Extension("graphsr.io._walk", ["graphsr/io/_walk.c"],
                      include_dirs=[*lxml.get_include(), numpy.get_include()],
                      extra_compile_args=["-O2"], optional=True)]


setup(ext_modules=extensions())
