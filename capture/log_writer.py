"""simrd's log format, written line by line (simrd/parse/parse.py reads it).

One JSON object a line, keys sorted, no spaces, numbers as decimal strings (the MUTATE
index list is a list of JSON integers): exactly how the public 2020 logs are written and
how dtrcheck's trace writer (io/trace_writer) writes them.
"""

import collections
import json
from typing import Dict, List, Sequence, Tuple


class LogWriter:
    """Collects the lines of one log and counts its instructions."""

    def __init__(self) -> None:
        self.lines: List[str] = []
        self.counts: Dict[str, int] = collections.Counter()

    def _emit(self, fields: Dict[str, object]) -> None:
        self.counts[str(fields['INSTRUCTION'])] += 1
        self.lines.append(json.dumps(fields, sort_keys=True, separators=(',', ':')))

    def annotate(self, annotation: str) -> None:
        self._emit({'INSTRUCTION': 'ANNOTATE', 'ANNOTATION': annotation})

    def constant(self, name: str, nbytes: int) -> None:
        self._emit({'INSTRUCTION': 'CONSTANT', 'NAME': name})
        self._emit({'INSTRUCTION': 'MEMORY', 'NAME': name, 'MEMORY': str(nbytes)})

    def call(self, op: str, args: Sequence[str], results: Sequence[Tuple[str, int, int]],
             time_ns: int) -> None:
        """results: (name, bytes, alias) per result; alias is -1 or an argument index."""
        self._emit({'INSTRUCTION': 'CALL', 'NAME': op, 'ARGS': list(args),
                    'RESULT': [name for name, _, _ in results], 'TIME': str(time_ns)})
        for name, nbytes, alias in results:
            self._emit({'INSTRUCTION': 'MEMORY', 'NAME': name, 'MEMORY': str(nbytes)})
            self._emit({'INSTRUCTION': 'ALIAS', 'NAME': name, 'ALIAS': str(alias)})

    def mutate(self, op: str, args: Sequence[str], mutated: Sequence[int], time_ns: int) -> None:
        self._emit({'INSTRUCTION': 'MUTATE', 'NAME': op, 'ARGS': list(args),
                    'MUTATE': list(mutated), 'TIME': str(time_ns)})

    def copy(self, dst: str, src: str) -> None:
        self._emit({'INSTRUCTION': 'COPY', 'DST': dst, 'SRC': src})

    def copy_from(self, dst: str, src: str) -> None:
        self._emit({'INSTRUCTION': 'COPY_FROM', 'DST': dst, 'SRC': src})

    def release(self, name: str) -> None:
        self._emit({'INSTRUCTION': 'RELEASE', 'NAME': name})

    def text(self) -> str:
        return ''.join(line + '\n' for line in self.lines)
