"""zkmsm's exceptions. Defined in Python (not in the extension) so that they
pickle: they travel between processes (multiprocessing, Ray) with their class,
message, `index` and `offset` intact, and `except zkmsm.ScalarError` catches
them wherever they were raised."""

from typing import Optional


class ZkmsmError(ValueError):
    """A bad input; `index` and `offset` say which point or scalar and its byte
    offset (None when no single record is at fault)."""

    def __init__(self, message: str = "", index: Optional[int] = None, offset: Optional[int] = None):
        super().__init__(message)
        self.index = index
        self.offset = offset

    def __reduce__(self):
        # the message, index and offset as constructor arguments: a subclass
        # with its own attributes adds them to its __dict__, restored after
        return (type(self), (str(self), self.index, self.offset), self.__dict__ or None)


class PointError(ZkmsmError):
    """The points are malformed, off the curve or outside the subgroup."""


class ScalarError(ZkmsmError):
    """The scalars are malformed or not below the group order r."""


class LengthError(ZkmsmError):
    """Points and scalars differ in number."""
