"""graphsr's version, in a module of its own: any layer may read it without importing the package's namespace."""

__version__ = "0.1.0"
