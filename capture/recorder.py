"""Records the aten operators of a PyTorch step as a simrd log (TorchDispatchMode, torch 1.13).

What a log name is. simrd's names are references to tensors: CALL binds fresh names to its
results, COPY adds a reference, RELEASE drops one, and a storage is freed once no name
refers to it. Here a name stands for one TensorImpl that the step handles (every tensor an
operator receives or returns reaches __torch_dispatch__ as the same Python object for as
long as its TensorImpl lives, thanks to PyTorch's PyObject preservation), and storages are
followed with weak references to their StorageImpl:

- an argument never seen before is a CONSTANT (parameters, buffers, inputs, tensors made
  outside the step) when its storage is new, and a COPY of a name on that storage when the
  storage is known (autograd unpacks a saved output as a new TensorImpl on the old storage);
- an operator is a CALL whose results carry MEMORY (bytes of a new storage) and ALIAS (-1 for
  a new storage, else the index of the argument whose storage the result shares);
- an operator that writes its arguments in place (alias annotation `a!` in its schema) and
  returns nothing new is a MUTATE; simrd gives the written name a new storage, so every other
  name on the same storage (views, handles) is moved onto it with COPY_FROM, and the old
  storage is freed as it is in PyTorch;
- a name is RELEASEd when its TensorImpl dies (weak-reference callback), except that the
  last name of a storage that PyTorch still holds (autograd keeps saved outputs as hidden
  TensorImpls, which Python never sees) stays bound until the storage itself dies. So
  simrd frees a storage exactly when PyTorch does, at the granularity of operators: deaths
  are written before the next operator.

The recorder never keeps a tensor alive: it holds weak references only.
"""

import gc
import statistics
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import torch
from torch.multiprocessing.reductions import StorageWeakRef
from torch.utils._python_dispatch import TorchDispatchMode

from capture import cost_model
from capture.log_writer import LogWriter


@dataclass
class StorageRecord:
    weak: StorageWeakRef
    nbytes: int
    names: List[str] = field(default_factory=list)  # bound names, in binding order
    pinned_constant: bool = False  # a CONSTANT that no MUTATE has replaced yet


@dataclass
class NameRecord:
    storage: int  # key of its StorageRecord
    live: bool = True  # its TensorImpl is alive


@dataclass
class CaptureStats:
    """What the capture's summary reports besides the log itself."""
    operators: Dict[str, int] = field(default_factory=dict)  # CALL/MUTATE name -> count
    fallback_operators: Dict[str, int] = field(default_factory=dict)  # costed by bytes only
    skipped_operators: Dict[str, int] = field(default_factory=dict)  # no tensor result
    folded_mutations: Dict[str, int] = field(default_factory=dict)  # CALLs that also write
    non_argument_aliases: int = 0  # results on a storage of no argument (an argument added)
    sibling_aliases: int = 0  # results sharing a new storage with an earlier result
    rebinds: int = 0  # TensorImpls whose storage changed under them
    flops: int = 0
    bytes_moved: int = 0
    torch_peak_bytes: int = 0  # live storages the step touched, sampled at each operator
    mutated_constant_bytes: int = 0  # constants replaced by MUTATE (simrd keeps them pinned)
    largest_mutated_bytes: int = 0  # the largest storage written in place


def storage_key(t: torch.Tensor) -> int:
    return t.storage()._cdata


def _shape(t: torch.Tensor) -> cost_model.TensorShape:
    storage_bytes = t.storage().nbytes()
    return cost_model.TensorShape(tuple(t.shape), t.element_size(),
                                  min(t.numel() * t.element_size(), storage_bytes))


def _flatten_tensors(value: Any) -> List[Optional[torch.Tensor]]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        out: List[Optional[torch.Tensor]] = []
        for v in value:
            if isinstance(v, torch.Tensor) or v is None:
                out.append(v)
            elif isinstance(v, (list, tuple)):
                out.extend(_flatten_tensors(v))
        return out if any(isinstance(v, torch.Tensor) for v in out) else []
    return []


def _is_tensor_value(value: Any) -> bool:
    return bool(_flatten_tensors(value))


class Recorder(TorchDispatchMode):
    """A dispatch mode that writes every aten operator it sees to a LogWriter."""

    def __init__(self, time_mode: str = 'roofline', repeats: int = 5, account: bool = True):
        super().__init__()
        self.log = LogWriter()
        self.stats = CaptureStats()
        self.time_mode = time_mode
        self.repeats = repeats
        self.account = account
        self._tensors: Dict[int, Tuple[weakref.ref, str]] = {}  # id(tensor) -> (ref, name)
        self._names: Dict[str, NameRecord] = {}
        self._storages: Dict[int, StorageRecord] = {}
        self._dead: List[str] = []  # names whose TensorImpl died, in order of death
        self._zombies: Dict[int, None] = {}  # storages held only by a dead name (ordered set)
        self._next_name = 0
        self._active = False

    # ----- names and storages

    def _fresh(self) -> str:
        name = 'x{}'.format(self._next_name)
        self._next_name += 1
        return name

    def _died(self, ref: weakref.ref, tensor_id: int, name: str) -> None:
        entry = self._tensors.get(tensor_id)
        if entry is not None and entry[0] is ref:
            del self._tensors[tensor_id]
        if self._active:
            self._dead.append(name)

    def _bind(self, name: str, key: int, t: torch.Tensor) -> None:
        st = self._storages[key]
        st.names.append(name)
        self._names[name] = NameRecord(key)
        tid = id(t)

        def on_death(r: 'weakref.ref[torch.Tensor]') -> None:
            self._died(r, tid, name)
        ref = weakref.ref(t, on_death)
        self._tensors[tid] = (ref, name)
        self._settle(key)  # a live name holds the storage now: no zombie needed

    def _new_storage(self, key: int, t: torch.Tensor, constant: bool) -> StorageRecord:
        st = StorageRecord(StorageWeakRef(t.storage()), t.storage().nbytes(),
                           pinned_constant=constant)
        self._storages[key] = st
        return st

    def _release(self, key: int, name: str) -> None:
        self._storages[key].names.remove(name)
        del self._names[name]
        self.log.release(name)

    def _settle(self, key: int) -> None:
        """Restores the invariant of a storage's names after deaths or a new binding.

        Live names: all dead ones are released. No live name and the storage alive: the
        earliest-bound dead name stays (it stands for PyTorch's hidden references). Storage
        expired: every name is released and the storage forgotten.
        """
        st = self._storages[key]
        live = [n for n in st.names if self._names[n].live]
        dead = [n for n in st.names if not self._names[n].live]
        if live:
            for n in dead:
                self._release(key, n)
            self._zombies.pop(key, None)
        elif st.weak.expired():
            for n in dead:
                self._release(key, n)
            self._zombies.pop(key, None)
            del self._storages[key]
        else:
            for n in dead[1:]:
                self._release(key, n)
            self._zombies[key] = None

    def flush(self) -> None:
        """Writes the releases PyTorch has done since the last operator."""
        while self._dead:
            dead, self._dead = self._dead, []
            keys: Dict[int, None] = {}
            for name in dead:
                rec = self._names.get(name)
                if rec is None:
                    continue
                rec.live = False
                keys[rec.storage] = None
            for key in keys:
                if key in self._storages:
                    self._settle(key)
        for key in list(self._zombies):
            if self._storages[key].weak.expired():
                self._settle(key)

    def _forget_if_expired(self, key: int) -> None:
        st = self._storages.get(key)
        if st is not None and st.weak.expired():
            for n in list(st.names):
                self._names[n].live = False
            self._settle(key)

    def name_of(self, t: torch.Tensor) -> str:
        """The name of a tensor argument, binding one (CONSTANT or COPY) if it has none."""
        entry = self._tensors.get(id(t))
        key = storage_key(t)
        if entry is not None and entry[0]() is t:
            name = entry[1]
            if self._names[name].storage != key:
                self._rebind(name, t, key)
            return name
        self._forget_if_expired(key)
        st = self._storages.get(key)
        name = self._fresh()
        if st is not None and st.names:
            self.log.copy(name, st.names[0])
        else:
            if st is None:
                self._new_storage(key, t, constant=True)
            self.log.constant(name, self._storages[key].nbytes)
        self._bind(name, key, t)
        return name

    def _rebind(self, name: str, t: torch.Tensor, key: int) -> None:
        """A TensorImpl now on another storage (`p.data = x`): COPY_FROM a name there."""
        self.stats.rebinds += 1
        self._forget_if_expired(key)
        st = self._storages.get(key)
        temporary = None
        if st is not None and st.names:
            src = st.names[0]
        else:  # a storage never seen: it enters as a constant, held by `name` alone
            if st is None:
                self._new_storage(key, t, constant=True)
            temporary = src = self._fresh()
            self.log.constant(src, self._storages[key].nbytes)
        old_key = self._names[name].storage
        self._storages[old_key].names.remove(name)
        self.log.copy_from(name, src)
        self._storages[key].names.append(name)
        self._names[name].storage = key
        if temporary is not None:
            self.log.release(temporary)
        self._settle(key)
        self._settle(old_key)

    def bind_inputs(self, tensors: List[torch.Tensor]) -> None:
        """Names parameters, buffers and inputs up front, in a stable order."""
        for t in tensors:
            self.name_of(t)

    # ----- the step

    def start(self) -> None:
        gc.collect()
        self._active = True
        self.log.annotate('START')

    def backward(self) -> None:
        self.flush()
        self.log.annotate('BACKWARD')

    def finish(self) -> None:
        gc.collect()
        self.flush()
        # A TensorImpl moved to another storage after its last use (`p.data = x` in an
        # optimizer) is seen only here.
        for ref, name in list(self._tensors.values()):
            t = ref()
            if (t is not None and name in self._names
                    and storage_key(t) != self._names[name].storage):
                self._rebind(name, t, storage_key(t))
        self.flush()
        self._active = False

    def _live_bytes(self) -> int:
        return sum(st.nbytes for st in self._storages.values() if not st.weak.expired())

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (),  # type: ignore[override]
                           kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        schema = func._schema
        if not self._active or schema.name.startswith('profiler::'):
            # record_function's markers (the optimizers use them) are not tensor operators.
            return func(*args, **kwargs)
        self.flush()
        op_base = cost_model.base_name(schema.name)
        op_name = op_base + ('.' + schema.overload_name if schema.overload_name else '')

        # Arguments in schema order: tensors (lists flattened) and the rest by name.
        tensors: List[Optional[torch.Tensor]] = []
        written_positions: List[int] = []
        scalars: Dict[str, object] = {}
        for i, arg in enumerate(schema.arguments):
            value = args[i] if i < len(args) else kwargs.get(arg.name)
            flat = _flatten_tensors(value)
            if flat or (value is None and 'Tensor' in str(arg.type)):
                is_write = arg.alias_info is not None and arg.alias_info.is_write
                for t in flat:
                    if t is not None and is_write:
                        written_positions.append(len(tensors))
                    tensors.append(t)
            else:
                scalars[arg.name] = value
        present = [t for t in tensors if t is not None]
        arg_names = [self.name_of(t) for t in present]
        present_index = {}
        j = 0
        for i, t in enumerate(tensors):
            if t is not None:
                present_index[i] = j
                j += 1
        written = sorted({present_index[i] for i in written_positions})

        start = time.perf_counter_ns()
        out = func(*args, **kwargs)
        elapsed = time.perf_counter_ns() - start

        outputs = [o for o in _flatten_tensors(out) if o is not None]
        fresh = [o for o in outputs if not any(o is t for t in present)]
        if not fresh and not written:
            self.stats.skipped_operators[op_name] = self.stats.skipped_operators.get(op_name, 0) + 1
            return out

        arg_keys = [self._names[n].storage for n in arg_names]
        results: List[Tuple[torch.Tensor, int, int]] = []  # tensor, key, alias
        extra_args: List[str] = []
        new_keys: List[int] = []
        deferred: List[Tuple[torch.Tensor, int]] = []
        for o in fresh:
            key = storage_key(o)
            if key in arg_keys:
                results.append((o, key, arg_keys.index(key)))
                continue
            if key in new_keys:
                deferred.append((o, key))
                continue
            self._forget_if_expired(key)
            st = self._storages.get(key)
            if st is not None and st.names:
                self.stats.non_argument_aliases += 1
                extra_args.append(st.names[0])
                arg_keys.append(key)
                results.append((o, key, len(arg_names) + len(extra_args) - 1))
                continue
            new_keys.append(key)
            results.append((o, key, -1))

        views_only = bool(results) and all(alias >= 0 for _, _, alias in results) and not written
        time_ns = self._time(op_base, present, [o for o, _, a in results if a < 0], scalars,
                             views_only, [present[i] for i in written], elapsed, func, args,
                             kwargs)
        self.stats.operators[op_name] = self.stats.operators.get(op_name, 0) + 1

        if self.account:
            live = self._live_bytes() + sum(
                o.storage().nbytes() for o, key, a in results
                if a < 0 and key not in self._storages)
            self.stats.torch_peak_bytes = max(self.stats.torch_peak_bytes, live)

        if results:
            if written:
                self.stats.folded_mutations[op_name] = \
                    self.stats.folded_mutations.get(op_name, 0) + 1
            self._emit_call(op_name, arg_names + extra_args, results, deferred, time_ns)
        else:
            self._emit_mutate(op_name, arg_names, written, time_ns)
        return out

    def _time(self, op: str, inputs: List[torch.Tensor], created: List[torch.Tensor],
              scalars: Dict[str, object], views_only: bool, written: List[torch.Tensor],
              elapsed: int, func: Any, args: Any, kwargs: Any) -> int:
        c = cost_model.cost(op, [_shape(t) for t in inputs], [_shape(t) for t in created],
                            scalars, views_only, [_shape(t) for t in written])
        self.stats.flops += c.flops
        self.stats.bytes_moved += c.bytes
        if not c.known:
            self.stats.fallback_operators[op] = self.stats.fallback_operators.get(op, 0) + 1
        if self.time_mode == 'roofline':
            return c.time_ns
        # measured: the median of repeated CPU timings; operators that write their arguments
        # run once (running them again would change the step).
        samples = [elapsed]
        if not written:
            for _ in range(self.repeats - 1):
                start = time.perf_counter_ns()
                func(*args, **kwargs)
                samples.append(time.perf_counter_ns() - start)
        return max(1, int(statistics.median(samples)))

    def _emit_call(self, op_name: str, arg_names: List[str],
                   results: List[Tuple[torch.Tensor, int, int]],
                   deferred: List[Tuple[torch.Tensor, int]], time_ns: int) -> None:
        lines: List[Tuple[str, int, int]] = []
        bound: List[Tuple[str, int, torch.Tensor]] = []
        for o, key, alias in results:
            name = self._fresh()
            nbytes = o.storage().nbytes() if alias < 0 else _shape(o).nbytes
            lines.append((name, nbytes, alias))
            bound.append((name, key, o))
        self.log.call(op_name, arg_names, lines, time_ns)
        for name, key, o in bound:
            if key not in self._storages:
                self._new_storage(key, o, constant=False)
            self._bind(name, key, o)
        # A result sharing a new storage with an earlier result: simrd's ALIAS can only name
        # an argument, so it becomes a view of that earlier result.
        for o, key in deferred:
            self.stats.sibling_aliases += 1
            base = self._storages[key].names[0]
            name = self._fresh()
            self.log.call(op_name + '.alias', [base], [(name, _shape(o).nbytes, 0)],
                          cost_model.VIEW_NS)
            self._bind(name, key, o)

    def _emit_mutate(self, op_name: str, arg_names: List[str], written: List[int],
                     time_ns: int) -> None:
        # One MUTATE index per written storage; other names on it follow with COPY_FROM.
        first_by_storage: Dict[int, int] = {}
        for i in written:
            first_by_storage.setdefault(self._names[arg_names[i]].storage, i)
        self.log.mutate(op_name, arg_names, sorted(first_by_storage.values()), time_ns)
        for key, i in first_by_storage.items():
            st = self._storages[key]
            self.stats.largest_mutated_bytes = max(self.stats.largest_mutated_bytes, st.nbytes)
            if st.pinned_constant:
                self.stats.mutated_constant_bytes += st.nbytes
                st.pinned_constant = False
            for other in list(st.names):
                if other != arg_names[i]:
                    self.log.copy_from(other, arg_names[i])
