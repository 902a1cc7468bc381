"""Type stubs of the extension module (see skelview/__init__.py)."""

import os
from typing import Any, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, "os.PathLike[str]"]

class LoadError(ValueError):
    """A file that could not be read."""

    path: str
    line: Optional[int]
    col: Optional[int]
    offset: Optional[int]
    message: str

class Motion:
    """A loaded motion: skeleton, clip, units and axes; a capture's markers and signals."""

    @property
    def path(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def joint_names(self) -> list[str]: ...
    @property
    def parents(self) -> npt.NDArray[np.int32]: ...
    @property
    def fps(self) -> float: ...
    @property
    def frame_time(self) -> float: ...
    @property
    def frame_count(self) -> int: ...
    @property
    def takes(self) -> list[str]: ...
    @property
    def take(self) -> Optional[str]: ...
    @property
    def units(self) -> str: ...
    @property
    def units_reason(self) -> str: ...
    @property
    def up_axis(self) -> str: ...
    @property
    def up_reason(self) -> str: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def channel_names(self) -> list[str]: ...
    @property
    def channels(self) -> npt.NDArray[np.float32]: ...
    @property
    def missing(self) -> npt.NDArray[np.bool_]: ...
    def positions(
        self,
        frames: Optional[Sequence[int]] = None,
        *,
        space: Literal["world", "local"] = "world",
        units: Literal["m", "file"] = "m",
        y_up: bool = True,
    ) -> npt.NDArray[np.float32]: ...
    def rotations(
        self,
        frames: Optional[Sequence[int]] = None,
        *,
        kind: Literal["quat", "matrix"] = "quat",
        space: Literal["local", "world"] = "local",
    ) -> npt.NDArray[np.float32]: ...
    def rest_positions(self, *, units: Literal["m", "file"] = "m", y_up: bool = True) -> npt.NDArray[np.float32]: ...
    @property
    def is_capture(self) -> bool: ...
    def marker_positions(self, *, units: Literal["m", "file"] = "m", y_up: bool = True) -> npt.NDArray[np.float32]: ...
    @property
    def residuals(self) -> npt.NDArray[np.float32]: ...
    @property
    def analog(self) -> dict[str, Any]: ...
    @property
    def events(self) -> list[dict[str, Any]]: ...
    def force_plates(self) -> list[dict[str, Any]]: ...
    def to_bvh(self, path: _Path, *, order: str = "ZXY") -> None: ...
    def to_glb(self, path: _Path) -> None: ...
    def to_trc(self, path: _Path) -> None: ...

def load(
    path: _Path,
    *,
    take: Optional[str] = None,
    fps: Optional[float] = None,
    bvh_positions: Optional[Literal["replace", "add"]] = None,
    amc_fps: Optional[float] = None,
) -> Motion: ...
def load_bytes(
    data: bytes,
    name: str,
    *,
    take: Optional[str] = None,
    fps: Optional[float] = None,
    bvh_positions: Optional[Literal["replace", "add"]] = None,
    amc_fps: Optional[float] = None,
) -> Motion: ...
def load_many(
    paths: Sequence[_Path],
    *,
    workers: Optional[int] = None,
    take: Optional[str] = None,
    fps: Optional[float] = None,
    bvh_positions: Optional[Literal["replace", "add"]] = None,
    amc_fps: Optional[float] = None,
) -> list[Motion]: ...
def formats() -> list[dict[str, Any]]: ...
def qa(
    path_or_motion: Union[_Path, Motion],
    *,
    kinds: Optional[Sequence[str]] = None,
    thresholds: Optional[str] = None,
) -> list[dict[str, Any]]: ...
def convert(src: _Path, dst: _Path, *, take: Optional[str] = None) -> None: ...
def measure(
    motion: Motion,
    *,
    distance: Optional[Sequence[tuple[str, str]]] = None,
    angle: Optional[Sequence[tuple[str, str, str]]] = None,
    speed: Optional[Sequence[str]] = None,
    accel: Optional[Sequence[str]] = None,
    frames: Optional[Sequence[int]] = None,
) -> dict[str, npt.NDArray[Any]]: ...
