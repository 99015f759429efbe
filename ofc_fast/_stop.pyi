"""Type stub for the compiled ``ofc_fast._stop`` (stopping the C loops early;
the C API is ``_stop.pxd``)."""
from typing_extensions import disjoint_base

@disjoint_base
class Stop:
    """One call's stop flag, shared by its chunks' threads."""
    def set(self) -> None:
        """Ask every chunk of the call to return at its next check."""
    @property
    def is_set(self) -> bool:
        """The call was asked to stop."""
