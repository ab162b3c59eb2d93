"""Compilation targets (mirrors ``tvm.target.Target`` restricted to the ``llvm`` and ``cuda``
kinds).

``Target()`` is the host CPU: the process triple, the host CPU name and the host's feature string
(as TVM's ``llvm`` target with no ``-mcpu`` resolves to the host). ``Target.parse`` accepts TVM's
target strings: ``"llvm"``, ``"llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a72
-mattr=+neon -opt-level=3"``. A target whose triple is not the host's (a cross target) defaults to
``-mcpu=generic`` and no extra features.

``Target.parse("cuda")`` (also ``"cuda -arch=sm_80"``, ``"cuda -mcpu=sm_90"``, ``"cuda-sm_80"``
and the bare triple ``"nvptx64-nvidia-cuda"``) is an NVIDIA GPU: kernels are emitted through
LLVM's NVPTX back end as PTX for ``mcpu`` (``sm_70`` when not given; PTX runs on any later GPU).
"""
from __future__ import annotations

import shlex
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import llvmlite.binding as llvm

from .target_names import check_cpu_and_features

__all__ = ["Target", "initialize_llvm", "CUDA_TRIPLE", "CUDA_DEFAULT_ARCH"]


@lru_cache(maxsize=1)
def initialize_llvm() -> None:
    """Initialise LLVM's targets, assembly printers and the native assembly parser once."""
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()


@lru_cache(maxsize=1)
def _host_triple() -> str:
    return llvm.get_process_triple()


@lru_cache(maxsize=1)
def _host_cpu() -> str:
    return llvm.get_host_cpu_name()


@lru_cache(maxsize=1)
def _host_features() -> str:
    """The host CPU's LLVM feature string (asked once: LLVM reads /proc/cpuinfo each time)."""
    return llvm.get_host_cpu_features().flatten()


def _arch(triple: str) -> str:
    arch = triple.split("-", 1)[0]
    return {"arm64": "aarch64", "amd64": "x86_64"}.get(arch, arch)


#: per thread: the target machines :meth:`Target.shared_target_machine` made
_MACHINES = threading.local()


@dataclass(frozen=True)
class Target:
    """An LLVM code-generation target (mirrors ``tvm.target.Target("llvm ...")``).

    Fields: ``kind`` (only ``"llvm"``), ``triple`` (``""`` = the host's), ``mcpu`` (``""`` = the
    host CPU for a host triple, ``"generic"`` otherwise), ``mattr`` (feature strings such as
    ``"+avx2"``; empty = the host's features on a host target), ``opt_level`` (0..3).

    ``kind="cuda"``: ``triple`` is ``nvptx64-nvidia-cuda`` and ``mcpu`` an ``sm_XX`` name
    (default :data:`CUDA_DEFAULT_ARCH`).

    Raises:
        ValueError: for another kind, an unknown triple, an ``mcpu`` or ``mattr`` feature LLVM
            does not know for the triple (``native`` is the host CPU), an ``mcpu`` that is not
            ``sm_XX`` on ``cuda`` or an opt level outside 0..3.
    """

    kind: str = "llvm"
    triple: str = ""
    mcpu: str = ""
    mattr: tuple[str, ...] = ()
    opt_level: int = 2

    def __post_init__(self) -> None:
        if self.kind not in ("llvm", "cuda"):
            raise ValueError(f"unsupported target kind {self.kind!r}: tirkit generates code for "
                             "'llvm' and 'cuda' targets only")
        if self.kind == "cuda":
            _check_cuda(self)
        if not 0 <= int(self.opt_level) <= 3:
            raise ValueError(f"opt_level must be 0..3, got {self.opt_level}")
        triple = self.triple or _host_triple()
        initialize_llvm()
        try:
            llvm.Target.from_triple(triple)
        except RuntimeError as exc:
            raise ValueError(f"unknown target triple {triple!r}: {exc}") from None
        object.__setattr__(self, "triple", triple)
        if self.kind == "llvm" and (self.mcpu or self.mattr):
            if self.mcpu == "native" and self.is_host:  # llc's spelling of the host CPU
                object.__setattr__(self, "mcpu", _host_cpu())
            check_cpu_and_features(triple, self.mcpu, tuple(self.mattr))
        mcpu = self.mcpu or (CUDA_DEFAULT_ARCH if self.kind == "cuda" else
                             _host_cpu() if self.is_host else "generic")
        object.__setattr__(self, "mcpu", mcpu)
        object.__setattr__(self, "mattr", tuple(self.mattr))
        object.__setattr__(self, "opt_level", int(self.opt_level))

    # ------------------------------------------------------------------------------ creation
    @staticmethod
    def host(opt_level: int = 2) -> "Target":
        """The CPU this process runs on."""
        return Target(opt_level=opt_level)

    @staticmethod
    def parse(text: "str | Target | None", **overrides: Any) -> "Target":
        """Parse a TVM target string (``"llvm -mtriple=... -mcpu=... -mattr=+a,+b"``).

        ``-opt-level=N`` sets ``opt_level``; ``-keys``, ``-device``, ``-num-cores`` and ``-mabi``
        are accepted and ignored. A bare triple (``"aarch64-linux-gnu"``) is taken as
        ``llvm -mtriple=<triple>``. ``overrides`` replace parsed fields.

        Raises:
            ValueError: for a kind other than ``llvm`` or an unknown option, naming it.
        """
        if isinstance(text, Target):
            return Target(**{**text.__dict__, **overrides}) if overrides else text
        tokens = shlex.split(text or "llvm")
        fields: dict[str, Any] = {}
        kind = tokens[0]
        if kind.startswith("cuda-sm_"):
            kind, fields["mcpu"] = "cuda", kind[len("cuda-"):]
        elif kind == CUDA_TRIPLE:
            kind = "cuda"
        elif kind != "llvm" and kind != "cuda" and "-" in kind and not kind.startswith("-"):
            fields["triple"], kind = kind, "llvm"
        for tok in tokens[1:]:
            _parse_option(tok, fields, text or "llvm")
        fields.update(overrides)
        return Target(kind=kind, **fields)

    # ------------------------------------------------------------------------------- queries
    @property
    def is_host(self) -> bool:
        """Whether code for this target runs in this process (same architecture and OS)."""
        return self.kind == "llvm" and _arch(self.triple) == _arch(_host_triple()) and \
            self.triple.split("-")[-1] == _host_triple().split("-")[-1]

    @property
    def features(self) -> str:
        """LLVM feature string: ``mattr`` joined, or the host's features on a host target."""
        if self.mattr:
            return ",".join(self.mattr)
        if self.kind == "cuda":
            return _CUDA_PTX.get(self.mcpu, "")
        if self.is_host and self.mcpu == _host_cpu():
            return _host_features()
        return ""

    @property
    def vector_bits(self) -> int:
        """Width in bits of the widest vector register the target's features give: 512 with
        ``+avx512f``, 256 with ``+avx``, 128 otherwise (SSE2, NEON, unknown features)."""
        features = self.features.split(",")
        return 512 if "+avx512f" in features else 256 if "+avx" in features else 128

    @property
    def arch(self) -> str:
        """The architecture part of the triple (``x86_64``, ``aarch64``...)."""
        return _arch(self.triple)

    def target_machine(self, *, jit: bool = False, opt_level: int | None = None) -> Any:
        """An llvmlite ``TargetMachine`` for this target (PIC relocation unless ``jit``)."""
        initialize_llvm()
        level = self.opt_level if opt_level is None else opt_level
        return llvm.Target.from_triple(self.triple).create_target_machine(
            cpu=self.mcpu, features=self.features, opt=level,
            reloc="default" if jit else "pic", codemodel="jitdefault" if jit else "default",
            jit=jit)

    def shared_target_machine(self, *, jit: bool = False, opt_level: int | None = None) -> Any:
        """The ``TargetMachine`` of :meth:`target_machine`, made once per thread and reused.

        LLVM builds a target machine's subtarget (the CPU's instruction, scheduling and
        legalization tables) on first use: about 1 ms for the optimisation passes and 2 ms for
        code generation on an AVX-512 host, paid again by every fresh machine. For running passes
        and emitting code only: never hand it to something that takes ownership (an MCJIT
        engine). One per thread, since LLVM's lazily filled subtarget map is not thread-safe.
        """
        level = self.opt_level if opt_level is None else opt_level
        cache = _MACHINES.__dict__.setdefault("machines", {})
        key = (self, jit, level)
        machine = cache.get(key)
        if machine is None:
            machine = cache[key] = self.target_machine(jit=jit, opt_level=level)
        return machine

    @property
    def is_gpu(self) -> bool:
        """Whether this is a GPU target (``cuda``): kernels run on a device, not in-process."""
        return self.kind == "cuda"

    def __str__(self) -> str:
        if self.kind == "cuda":
            return f"cuda -arch={self.mcpu}" + (f" -opt-level={self.opt_level}"
                                                if self.opt_level != 2 else "")
        parts = ["llvm", f"-mtriple={self.triple}", f"-mcpu={self.mcpu}"]
        if self.mattr:
            parts.append("-mattr=" + ",".join(self.mattr))
        if self.opt_level != 2:
            parts.append(f"-opt-level={self.opt_level}")
        return " ".join(parts)


#: the LLVM triple of NVIDIA GPUs (64-bit PTX) and the default architecture of ``cuda``
CUDA_TRIPLE = "nvptx64-nvidia-cuda"
CUDA_DEFAULT_ARCH = "sm_70"
#: the PTX ISA version emitted per architecture (at least 7.0, CUDA 11: warp intrinsics such as
#: activemask need more than LLVM's minimum for sm_70)
_CUDA_PTX = {"sm_70": "+ptx70", "sm_72": "+ptx70", "sm_75": "+ptx70", "sm_80": "+ptx70",
             "sm_86": "+ptx71", "sm_87": "+ptx74", "sm_89": "+ptx78", "sm_90": "+ptx78",
             "sm_90a": "+ptx80"}
_CUDA_ARCHS = tuple(_CUDA_PTX)


def _check_cuda(target: "Target") -> None:
    if target.triple not in ("", CUDA_TRIPLE):
        raise ValueError(f"the cuda target's triple is {CUDA_TRIPLE}, got {target.triple!r}")
    object.__setattr__(target, "triple", CUDA_TRIPLE)
    if target.mcpu and target.mcpu not in _CUDA_ARCHS:
        raise ValueError(f"unsupported CUDA architecture {target.mcpu!r} (supported: "
                         f"{', '.join(_CUDA_ARCHS)})")


_IGNORED = ("-keys", "-device", "-num-cores", "-mabi", "-tag", "-host", "-model")


def _parse_option(tok: str, fields: dict[str, Any], text: str) -> None:
    key, _, value = tok.partition("=")
    if key == "-mtriple":
        fields["triple"] = value
    elif key in ("-mcpu", "-arch"):
        fields["mcpu"] = value
    elif key == "-mattr":
        fields["mattr"] = tuple(v for v in value.split(",") if v)
    elif key in ("-opt-level", "-O"):
        fields["opt_level"] = int(value)
    elif key in _IGNORED:
        return
    else:
        raise ValueError(f"unknown option {tok!r} in target string {text!r} (known: -mtriple, "
                         "-mcpu, -mattr, -opt-level)")
