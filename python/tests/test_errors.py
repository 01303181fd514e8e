"""Errors are dtrcheck.Error with the CLI's message; a policy that fails
names itself; nothing crashes."""
from __future__ import annotations

import math
from typing import Optional

import pytest
from conftest import need_trace

import dtrcheck


def test_error_is_value_and_runtime_error() -> None:
    assert issubclass(dtrcheck.Error, ValueError) and issubclass(dtrcheck.Error, RuntimeError)


def test_unknown_trace() -> None:
    with pytest.raises(dtrcheck.Error, match=r'^dtrcheck run: .*no-such-trace'):
        dtrcheck.run('no-such-trace', ratio=0.5)


def test_unknown_heuristic_lists_the_names() -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match='NoSuch.*DTR'):
        dtrcheck.run('resnet32', ratio=0.5, heuristic='NoSuch')


def test_no_budget() -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match='budget|ratio'):
        dtrcheck.run('resnet32')


def test_bad_grid() -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match='^dtrcheck sweep: '):
        dtrcheck.sweep('resnet32', '0.2', '0.1', '0.01')


def test_malformed_trace_names_file_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / 'bad.log'
    bad.write_text('{"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}\n{"INSTRUCTION":"CONSTANT"\n')
    with pytest.raises(dtrcheck.Error, match=r'bad\.log:2'):
        dtrcheck.run(str(bad), budget=100)


class Raises(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        raise ZeroDivisionError('on purpose')


class WrongType(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 'cheap'  # type: ignore[return-value]


class BadChoice(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> int:
        return 10 ** 9


class ChoosesText(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> int:
        return 'x'  # type: ignore[return-value]


class ChoosesDict(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> int:
        return {}  # type: ignore[return-value]


class ChoosesListOfText(ChoosesDict):
    def choose(self, view: dtrcheck.View) -> int:
        return [view.pool_nth(0), 'x']  # type: ignore[return-value]


class ChoosesListOfMinusOne(ChoosesDict):
    def choose(self, view: dtrcheck.View) -> int:
        return [-1]  # type: ignore[return-value]


class ChoosesOutsideInList(ChoosesDict):
    def choose(self, view: dtrcheck.View) -> int:
        return [view.pool_nth(0), 10 ** 9]  # type: ignore[return-value]


class KeepsView(dtrcheck.Heuristic):
    """Uses the View of an earlier call: an error, not a dangling pointer."""

    def __init__(self) -> None:
        self.kept: Optional[dtrcheck.View] = None

    def score(self, storage: int, view: dtrcheck.View) -> float:
        if self.kept is not None:
            return float(self.kept.clock())
        self.kept = view
        return 1.0


class PoolOverrun(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> int:
        return view.pool_nth(view.pool_size())


class RandZero(dtrcheck.Heuristic):
    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0

    def choose(self, view: dtrcheck.View) -> int:
        return view.rand_below(0)


class UnknownFeature(dtrcheck.Heuristic):
    features = frozenset({'telepathy'})

    def score(self, storage: int, view: dtrcheck.View) -> float:
        return math.inf


class NeedsRegions(dtrcheck.Heuristic):
    features = frozenset({'regions'})

    def score(self, storage: int, view: dtrcheck.View) -> float:
        return 1.0


@pytest.mark.parametrize('policy, message', [
    (Raises, r'heuristic py\.Raises: Score threw: ZeroDivisionError: on purpose'),
    (WrongType, r'heuristic py\.WrongType: Score threw: score returned str'),
    (BadChoice, r'heuristic py\.BadChoice: Choose returned storage 1000000000'),
    (ChoosesText, r'heuristic py\.ChoosesText: Choose threw: choose returned str'),
    (ChoosesDict, r'heuristic py\.ChoosesDict: Choose threw: choose returned dict, expected a '
                  r'storage \(int\), a list of storages or None'),
    (ChoosesListOfText, r'heuristic py\.ChoosesListOfText: Choose threw: choose returned a list '
                        r'holding str at 1'),
    (ChoosesListOfMinusOne, r'heuristic py\.ChoosesListOfMinusOne: Choose threw: choose returned '
                            r'a list holding -1 at 0, which is no storage'),
    (ChoosesOutsideInList, r'heuristic py\.ChoosesOutsideInList: Choose returned storage '
                           r'1000000000'),
    (KeepsView, r'heuristic py\.KeepsView: Score threw: RuntimeError: the View is valid only'),
    (PoolOverrun, r'heuristic py\.PoolOverrun: Choose threw: IndexError: pool_nth'),
    (RandZero, r'heuristic py\.RandZero: Choose threw: ValueError: rand_below\(0\)'),
])
def test_failing_policy_names_itself(policy: type, message: str) -> None:
    need_trace('resnet32')
    for jobs in (1, 2):
        with pytest.raises(dtrcheck.Error, match=message):
            dtrcheck.sweep('resnet32', ratios=[0.3, 0.4], heuristic=policy, jobs=jobs)


def test_unknown_feature() -> None:
    with pytest.raises(ValueError, match=r'heuristic py\.UnknownFeature: unknown feature'):
        dtrcheck.run('resnet32', ratio=0.5, heuristic=UnknownFeature)


def test_runtime_refuses_missing_feature() -> None:
    need_trace('resnet32')
    with pytest.raises(dtrcheck.Error, match='py.NeedsRegions'):
        dtrcheck.run('resnet32', ratio=0.5, heuristic=NeedsRegions, runtime='RuntimeV2Eager',
                     baseline_runtime='RuntimeV2Eager')


def test_name_clash_with_a_builtin() -> None:
    class Clash(dtrcheck.Heuristic):
        name = 'DTR'

        def score(self, storage: int, view: dtrcheck.View) -> float:
            return 1.0

    with pytest.raises(dtrcheck.Error, match='clashes with a built-in'):
        dtrcheck.register(Clash)


def test_not_a_policy() -> None:
    with pytest.raises(TypeError):
        dtrcheck.run('resnet32', ratio=0.5, heuristic=42)  # type: ignore[arg-type]


def test_plugin_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(dtrcheck.Error, match=r'no such file'):
        dtrcheck.load_plugin(str(tmp_path / 'missing.so'))
    # A shared library without the entry points: the extension itself.
    with pytest.raises(dtrcheck.Error, match=r'not a dtrcheck plugin'):
        dtrcheck.load_plugin(dtrcheck._dtrcheck.__file__)
