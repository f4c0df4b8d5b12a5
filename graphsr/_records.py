"""Records: classes of named fields, as :func:`dataclasses.dataclass` makes them, made without compiling code.

A dataclass's ``__init__``, ``__repr__``, ``__eq__`` and (frozen) ``__setattr__`` are generated as source text and
compiled each time its module is imported: 0.4 to 0.8 ms a class on Python 3.11, twenty milliseconds for the
records a ``graphsr eval`` of a TREC run meets (a tenth of the command).  :func:`record` gives the same methods as
closures over the class's fields, made in microseconds; the fields are read from the class's annotations as a
dataclass's are (``ClassVar`` left out), with defaults, :func:`field` ``(default_factory=...)``,
``__post_init__``, ``frozen`` and ``eq``.  Instances are made more slowly (a few microseconds each), so records
are for objects made a few times a command (options, inputs, a topic's ranking); a record made once a line of a
file writes its own ``__init__`` (``init=False``).
:func:`replace` is :func:`dataclasses.replace` for records.  Type checkers read :func:`record` as a dataclass
(``dataclass_transform``).

>>> @record(frozen=True)
... class Point:
...     x: int
...     y: int = 0
...     tags: tuple = field(default_factory=tuple)
>>> p = Point(1, y=2)
>>> p, p == Point(1, 2), replace(p, y=5).y, hash(p) == hash(Point(1, 2))
(Point(x=1, y=2, tags=()), True, 5, True)
>>> p.x = 3
Traceback (most recent call last):
    ...
graphsr._records.FrozenRecordError: cannot assign to field 'x' of a frozen Point
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

__all__ = ["record", "field", "replace", "FrozenRecordError", "is_record"]

T = TypeVar("T")
_MISSING: Any = object()
_FIELDS = "__record_fields__"


class FrozenRecordError(AttributeError):
    """An assignment to a field of a frozen record."""


class _Field:
    __slots__ = ("default", "default_factory")

    def __init__(self, default: Any, default_factory: Any):
        self.default = default
        self.default_factory = default_factory


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | Any = _MISSING) -> Any:
    """A field's default (``default``), or what makes it anew for each record (``default_factory``)."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError("a field takes a default or a default_factory, not both")
    return _Field(default, default_factory)


def _is_class_var(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _fields(cls: type) -> tuple[tuple[str, Any, Any], ...]:
    """(name, default, default_factory) of each field, in the class's order; a field without a default after one
    with a default is refused, as dataclasses refuse it."""
    out: list[tuple[str, Any, Any]] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_class_var(annotation):
            continue
        value = cls.__dict__.get(name, _MISSING)
        if isinstance(value, _Field):
            default, factory = value.default, value.default_factory
            if default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, default)
        else:
            default, factory = value, _MISSING
        if (
            default is _MISSING
            and factory is _MISSING
            and any(d is not _MISSING or f is not _MISSING for _, d, f in out)
        ):
            raise TypeError(f"{cls.__qualname__}: non-default field {name!r} follows a default field")
        out.append((name, default, factory))
    return tuple(out)


def _make_init(cls: type, fields: tuple[tuple[str, Any, Any], ...], post_init: bool) -> Callable[..., None]:
    names = tuple(name for name, _, _ in fields)
    where = {name: k for k, name in enumerate(names)}
    qualname = cls.__qualname__
    set_field = object.__setattr__

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{qualname}() takes {len(names)} positional arguments but {len(args)} were given")
        values = list(args) + [_MISSING] * (len(names) - len(args))
        for key, value in kwargs.items():
            k = where.get(key)
            if k is None:
                raise TypeError(f"{qualname}() got an unexpected keyword argument {key!r}")
            if k < len(args):
                raise TypeError(f"{qualname}() got multiple values for argument {key!r}")
            values[k] = value
        for k, (name, default, factory) in enumerate(fields):
            if values[k] is _MISSING:
                if factory is not _MISSING:
                    values[k] = factory()
                elif default is not _MISSING:
                    values[k] = default
                else:
                    raise TypeError(f"{qualname}() missing required argument: {name!r}")
            set_field(self, name, values[k])
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    if name in getattr(type(self), _FIELDS):
        raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen {type(self).__qualname__}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self: Any, name: str) -> None:
    if name in getattr(type(self), _FIELDS):
        raise FrozenRecordError(f"cannot delete field {name!r} of a frozen {type(self).__qualname__}")
    object.__delattr__(self, name)


def _values(self: Any) -> tuple:
    return tuple(self.__dict__[name] for name in getattr(type(self), _FIELDS))


def _repr(self: Any) -> str:
    inner = ", ".join(f"{name}={self.__dict__[name]!r}" for name in getattr(type(self), _FIELDS))
    return f"{type(self).__qualname__}({inner})"


def _eq(self: Any, other: Any) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _dataclass_transform(**_: Any) -> Callable[[T], T]:
    return lambda f: f


if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    dataclass_transform = _dataclass_transform


@dataclass_transform(field_specifiers=(field,))
def record(cls: Any = None, /, *, frozen: bool = False, eq: bool = True, init: bool = True) -> Any:
    """The class ``cls`` as a record (see the module docstring); ``@record`` or ``@record(frozen=True, eq=False)``.
    ``init=False``: the class writes its own ``__init__`` (compiled with its module: for records made one a line
    of a file), which sets every field."""

    def wrap(c: type) -> type:
        fields = _fields(c)
        setattr(c, _FIELDS, tuple(name for name, _, _ in fields))
        if init:
            c.__init__ = _make_init(c, fields, "__post_init__" in c.__dict__)  # type: ignore[misc]
        elif "__init__" not in c.__dict__:
            raise TypeError(f"{c.__qualname__}: a record made with init=False writes its own __init__")
        if "__repr__" not in c.__dict__:
            c.__repr__ = _repr  # type: ignore[assignment]
        if eq and "__eq__" not in c.__dict__:
            c.__eq__ = _eq  # type: ignore[assignment]
            if "__hash__" not in c.__dict__ or c.__dict__["__hash__"] is None:
                c.__hash__ = _hash if frozen else None  # type: ignore[assignment]
        if frozen:
            c.__setattr__ = _frozen_setattr  # type: ignore[assignment]
            c.__delattr__ = _frozen_delattr  # type: ignore[assignment]
        return c

    return wrap if cls is None else wrap(cls)


def is_record(obj: Any) -> bool:
    """Whether ``obj`` is a record or a record class."""
    return hasattr(obj, _FIELDS)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` (its ``__init__`` and ``__post_init__`` run again)."""
    names = getattr(type(obj), _FIELDS, None)
    if names is None:
        raise TypeError(f"replace() takes a record, got {type(obj).__qualname__}")
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"{type(obj).__qualname__} has no field {sorted(unknown)[0]!r}")
    return type(obj)(**{name: changes.get(name, obj.__dict__[name]) for name in names})
