"""Type stubs of the extension module (see skelview/__init__.py)."""

import os
from typing import Any, Literal, Optional, Sequence, Union, final

import numpy as np
import numpy.typing as npt

__all__ = ["load", "load_bytes", "load_many", "formats", "operations", "qa", "convert", "measure", "Motion", "Mesh", "LoadError"]

_Path = Union[str, "os.PathLike[str]"]
# Frames to pose: indices (negative from the end), a slice, or a bool mask of every frame.
_Frames = Union[Sequence[int], slice, npt.NDArray[np.integer[Any]], npt.NDArray[np.bool_]]

class LoadError(ValueError):
    """A file that could not be read."""

    path: str
    line: Optional[int]
    col: Optional[int]
    offset: Optional[int]
    message: str

@final
class Mesh:
    """A mesh of a motion (a drawn primitive, as `skelview info` lists it): name, triangles and whether a skin
    binds it; its posed vertices come from `Motion.vertices(mesh=index)`."""

    @property
    def name(self) -> str:
        """The mesh's name (with the primitive's number when the mesh has several)."""
    @property
    def index(self) -> int:
        """Its position in `Motion.meshes` (the `mesh` argument of `Motion.vertices`)."""
    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
    @property
    def faces(self) -> npt.NDArray[np.uint32]:
        """Triangles, faces x 3 vertex indices into this mesh's vertices (uint32)."""
    @property
    def skinned(self) -> bool:
        """True when a skin binds it to the joints (else it follows one joint rigidly)."""
    @property
    def morph_targets(self) -> list[str]:
        """Its morph targets' names (blend shapes), in the file's order."""

@final
class Motion:
    """A loaded motion: skeleton, clip, units and axes; a capture's markers and signals."""

    @property
    def path(self) -> str:
        """The file read (the AMC of an ASF/AMC pair)."""
    @property
    def format(self) -> str:
        """The format's name (`BVH`, `C3D`...)."""
    @property
    def joint_names(self) -> list[str]:
        """Joint names, parents first (a capture's markers are its joints)."""
    @property
    def parents(self) -> npt.NDArray[np.int32]:
        """Each joint's parent index, -1 for roots (int32)."""
    @property
    def fps(self) -> float:
        """Frames per second."""
    @property
    def frame_time(self) -> float:
        """Seconds between frames, as the file states it."""
    @property
    def frame_count(self) -> int:
        """Number of frames (0 for a skeleton without motion)."""
    @property
    def takes(self) -> list[str]:
        """The animations the file holds, when it holds several."""
    @property
    def take(self) -> Optional[str]:
        """The take loaded, or None."""
    @property
    def units(self) -> str:
        """Length unit of the file (`mm`, `cm`, `m`, `in`...), declared or detected."""
    @property
    def units_reason(self) -> str:
        """How the unit was settled: `declared` or `detected from the body's height`."""
    @property
    def up_axis(self) -> str:
        """Up axis of the file (`+Y`, `+Z`...), declared or detected."""
    @property
    def up_reason(self) -> str:
        """How the up axis was settled: `declared`, or what decided it."""
    @property
    def warnings(self) -> list[str]:
        """Problems that did not stop the load, as the command line prints them."""
    @property
    def channel_names(self) -> list[str]:
        """`joint.channel` for every column of `channels`."""
    @property
    def channels(self) -> npt.NDArray[np.float32]:
        """Channel values, frames x channels (float32), in the file's own units (degrees where the file writes
        degrees); values the file left missing hold the last valid one (see `missing`)."""
    @property
    def missing(self) -> npt.NDArray[np.bool_]:
        """True where the file held no value (NaN, Inf, a marker's gap), frames x channels (bool)."""
    @property
    def filled(self) -> npt.NDArray[np.bool_]:
        """True where an edit filled a value in (gap filling), frames x channels (bool)."""
    def edit(self, recipe: Union[str, dict[str, Any], Sequence[dict[str, Any]], None] = None, **operations: Any) -> "Motion":
        """A new motion with a recipe applied (this one is left as it is): TOML text, a dict or a list of steps,
        and/or operations as keyword arguments in the order given (`fill_gaps="spline"`, `filter=6.0` or
        `filter={"cutoff_hz": 6, "order": 2}`, `unroll=True`, `trim="10:80"`, `resample=60`), as `skelview edit`
        applies them."""
    def humanoid(self, map: Optional[str] = None) -> dict[str, str]:
        """The humanoid bone map: VRM 1.0 bone -> joint name, found from the file's own map, joint names or the
        tree's shape; `map` (TOML text, `[bones] hips = "Hips"`) over it."""
    def retarget(
        self, target: "Motion", *, map: Optional[str] = None, target_map: Optional[str] = None,
        scale: Union[str, float, None] = None,
        keep_feet: bool = False,
    ) -> "Motion":
        """This motion on `target`'s skeleton, bone by bone through the two humanoid bone maps (`map`, `target_map`:
        TOML text over the ones found); `scale` is "auto" (the hips' travel scaled by the legs) or a factor;
        `keep_feet` holds the feet still while the source's stand (leg IK)."""
    def save(self, path: _Path, *, order: Optional[str] = None) -> None:
        """Writes the motion in the format `path`'s extension names (`formats()` lists the writers); a BVH keeps
        this motion's rotation order unless `order` is given."""
    def positions(
        self,
        frames: Optional[_Frames] = None,
        *,
        space: Literal["world", "local"] = "world",
        units: Literal["m", "file"] = "m",
        y_up: bool = True,
    ) -> npt.NDArray[np.float32]:
        """Joint positions, frames x joints x 3 (float32); `frames`: None for every frame, a slice, indices (negative
        from the end) or a bool mask of every frame. `space="world"`: joint
        origins; `"local"`: offset from the parent in its frame. `units` metres or the file's; `y_up` turns the
        axes so +Y is up (world only). NaN where a position rests on a missing value."""
    def rotations(
        self,
        frames: Optional[_Frames] = None,
        *,
        kind: Literal["quat", "matrix"] = "quat",
        space: Literal["local", "world"] = "local",
    ) -> npt.NDArray[np.float32]:
        """Joint rotations (float32; `frames` None for every frame): `kind="quat"` (x, y, z, w), frames x joints x 4,
        or `"matrix"`, frames x joints x 3 x 3. `space="local"`: relative to the parent, file axes; `"world"`:
        display axes (metres, +Y up)."""
    def rest_positions(self, *, units: Literal["m", "file"] = "m", y_up: bool = True) -> npt.NDArray[np.float32]:
        """The rest pose's joint positions, joints x 3 (float32); `units` metres or the file's, `y_up` +Y up."""
    @property
    def meshes(self) -> list[Mesh]:
        """The meshes (glTF/VRM primitives), in the order `skelview info` lists them; empty for a file without
        meshes."""
    def vertices(
        self,
        frames: Optional[_Frames] = None,
        *,
        mesh: Optional[int] = None,
        units: Literal["m", "file"] = "m",
        y_up: bool = True,
    ) -> npt.NDArray[np.float32]:
        """Posed mesh vertices, frames x vertices x 3 (float32; `frames` as `positions`): every mesh's, one after
        another in `meshes` order, or mesh number `mesh`'s (negative from the end; IndexError when out of range).
        `units` and `y_up` as `positions`, so vertices and joints share a space; morph targets and skins applied.
        Raises ValueError when the file has no meshes."""
    @property
    def is_capture(self) -> bool:
        """True for a marker capture (C3D, TRC)."""
    def marker_positions(self, *, units: Literal["m", "file"] = "m", y_up: bool = True) -> npt.NDArray[np.float32]:
        """A capture's marker positions, frames x markers x 3 (float32), NaN in gaps; markers are the joints, in
        order. Raises ValueError when the motion is not a capture."""
    @property
    def residuals(self) -> npt.NDArray[np.float32]:
        """A capture's residuals, frames x markers (float32, the file's units), NaN in gaps."""
    @property
    def analog(self) -> dict[str, Any]:
        """A capture's analog channels: `{"names", "units", "rate", "values"}` (values: samples x channels,
        float32, scale and offset applied)."""
    @property
    def events(self) -> list[dict[str, Any]]:
        """A capture's events: `{"label", "context", "time"}` each (time in seconds), by time."""
    def force_plates(self) -> list[dict[str, Any]]:
        """A capture's force platforms: `{"type", "corners", "force", "moment", "cop", "free_moment"}` each (per
        analog sample, the lab's frame, float32), or `"error"` where the platform cannot be computed."""
    def to_bvh(self, path: _Path, *, order: str = "ZXY") -> None:
        """Writes BVH to `path`, which must end in `.bvh`; rotations in `order` (X, Y and Z once each, first listed
        outermost)."""
    def to_glb(self, path: _Path) -> None:
        """Writes binary glTF (this take) to `path`, which must end in `.glb`."""
    def to_trc(self, path: _Path) -> None:
        """Writes TRC (a capture's markers, or the joints as virtual markers) to `path`, which must end in `.trc`."""

def load(
    path: _Path,
    *,
    take: Optional[str] = None,
    fps: Optional[float] = None,
    meshes: bool = True,
    options: Optional[dict[str, Union[str, float, int]]] = None,
    bvh_positions: Optional[Literal["replace", "add"]] = None,
    amc_fps: Optional[float] = None,
    body_model: Optional[_Path] = None,
    gender: Optional[Literal["file", "neutral", "female", "male"]] = None,
) -> Motion:
    """Reads a motion file: BVH, ASF/AMC, HTR/GTR, ACL, H-Anim, FBX, glTF/VRM, C3D, TRC, MOT or NumPy
    (SMPL-family `.npz`, HumanML3D `.npy`; an `.amc` finds its `.asf`); the GIL is released while parsing.
    `options` sets any format's read option by key (`{"fbx.joints": "bones"}`; `formats()` lists them);
    `bvh_positions`, `amc_fps`, `body_model` (your SMPL, SMPL+H or SMPL-X model file or folder; else
    SKELVIEW_BODY_MODELS) and `gender` (which of the folder's models: the file's own by default) are keywords
    of their own for `bvh.positions`, `amc.fps`, `npz.body_model` and `npz.gender`. `meshes=False` reads no
    meshes (a character's, or a body model's: its joints alone, read once for a folder of motions): faster when
    only joints are wanted; `vertices()` then has none.
    Raises LoadError when the file cannot be read."""
def load_bytes(
    data: bytes,
    name: str,
    *,
    take: Optional[str] = None,
    fps: Optional[float] = None,
    meshes: bool = True,
    options: Optional[dict[str, Union[str, float, int]]] = None,
    bvh_positions: Optional[Literal["replace", "add"]] = None,
    amc_fps: Optional[float] = None,
    body_model: Optional[_Path] = None,
    gender: Optional[Literal["file", "neutral", "female", "male"]] = None,
) -> Motion:
    """Reads a motion from bytes in memory; `name` (a file name) chooses the format and names it in messages."""
def load_many(
    paths: Sequence[_Path],
    workers: Optional[int] = None,
    *,
    take: Optional[str] = None,
    fps: Optional[float] = None,
    meshes: bool = True,
    options: Optional[dict[str, Union[str, float, int]]] = None,
    bvh_positions: Optional[Literal["replace", "add"]] = None,
    amc_fps: Optional[float] = None,
    body_model: Optional[_Path] = None,
    gender: Optional[Literal["file", "neutral", "female", "male"]] = None,
) -> list[Motion]:
    """Reads many files in parallel (all cores when `workers` is None, else `workers` threads) with the GIL
    released; the first file that fails raises its LoadError."""
def formats() -> list[dict[str, Any]]:
    """Every format skelview reads: name, description, extensions, whether `convert` writes it, and its read
    options (each a dict: key, keyword, label, help, default, and choices or min, max and unit)."""
def operations() -> list[dict[str, Any]]:
    """Every edit operation `Motion.edit` takes, from the engine's declarations: name (the keyword), label, help,
    keyword_value (the parameter a plain keyword value sets) and params (each: key, kind, help, required,
    default, start, and min/max/unit/integer or choices)."""
def qa(
    path_or_motion: Union[_Path, Motion],
    *,
    kinds: Optional[Union[str, Sequence[str]]] = None,
    thresholds: Optional[Union[str, dict[str, dict[str, float]]]] = None,
) -> list[dict[str, Any]]:
    """The capture checks of a motion or a file: the records of `skelview qa --json`, one dict per finding, then
    a `summary` dict. `kinds` None runs every check (or a name, "pop,jitter", a list); `thresholds` is TOML text
    or a dict of the same tables (`{"pop": {"factor": 10.0}}`)."""
def convert(src: _Path, dst: _Path, *, take: Optional[str] = None) -> None:
    """Converts a motion file: the extension of `dst` chooses BVH, glTF (`.glb`/`.gltf`), TRC or (for a C3D's
    force platforms) OpenSim MOT."""
def measure(
    motion: Motion,
    *,
    distance: Optional[Sequence[tuple[str, str]]] = None,
    angle: Optional[Sequence[tuple[str, str, str]]] = None,
    speed: Optional[Sequence[str]] = None,
    accel: Optional[Sequence[str]] = None,
    frames: Optional[_Frames] = None,
) -> dict[str, npt.NDArray[Any]]:
    """Measures over time by joint name (distance, angle at b, speed, accel) at `frames` (None: all). Returns
    `"frame"` and `"time"` arrays and a float64 array per measure keyed by its label (`distance A B [m]`);
    units metres, degrees, m/s, m/s^2; NaN where a value rests on missing data."""
