"""The end of every hostile-input script: each failure on its own line, a count, and the
exit code ctest reads."""
from typing import List


def verdict(failed: List[str]) -> int:
    for failure in failed:
        print('FAIL', failure)
    print(f'{len(failed)} failed')
    return 1 if failed else 0
