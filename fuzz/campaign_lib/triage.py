"""Triage: from a fuzzer's finding to an archived, reduced, confirmed
counterexample.

A pathology claim (claims/<id>, the input that first showed signature <id>)
goes through:
  decode     `dtrcheck fuzz-decode` (the fuzzer's own decoder): the trace,
             the sweep and its findings; the one whose id is the claim's is
             the finding to triage.
  dedupe     a signature already archived (corpus/<kind>/<id>) is done.
  reduce     `dtrcheck reduce` with the finding's property, budgets and
             configuration; SIGINT after the time limit keeps the best
             trace so far (not 1-minimal then, and the manifest says so).
  confirm    reduce asks simrd (both budgets) when it is installed; a trace
             simrd runs differently is a parity bug, kept in triage/ and
             reported, never archived.
  dedupe     a reduced trace identical to an archived one of the same kind
             and configuration is a duplicate.
  archive    corpus/<kind>/<id>/ written in a temporary directory and
             renamed into place: it either exists whole or not at all.
An artifact of libFuzzer (crash-, leak-, timeout-, oom-) is rerun once to
keep its report, and filed under bugs/ unless it is a pathology report.
Each item ends with triage/<item>/result.json; an item without one is
pending and is triaged again by the next campaign.
"""
import base64
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time

from .layout import KINDS, ROOT, read_json, read_jsonl, write_atomic, write_json

FORMAT = 1  # of manifest.json; analysis/archived_finding.h reads it


class Interrupted(Exception):
    """The campaign was stopped (Ctrl-C) while an item was in progress."""


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def rel(path):
    """A path relative to the repository when inside it: manifests are committed."""
    path = os.path.abspath(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


class Triage:
    def __init__(self, findings, archive, dtrcheck, fuzz_bin, env, reduce_timeout, oracle=True, log=print):
        self.findings = findings
        self.archive = os.path.abspath(archive)
        self.dtrcheck = dtrcheck
        self.fuzz_bin = fuzz_bin
        self.env = env
        self.reduce_timeout = reduce_timeout
        self.oracle = oracle
        self.log = log
        self.decoded = {}  # claim id -> (decode json, finding) of pending claims

    # ----- what is pending -------------------------------------------------
    def result_path(self, item):
        return os.path.join(self.findings.triage, item, "result.json")

    def pending_claims(self):
        out = []
        for path in glob.glob(os.path.join(self.findings.claims, "*")):
            name = os.path.basename(path)
            if ".tmp" in name or os.path.exists(self.result_path(name)):
                continue
            out.append(name)
        return out

    def pending_artifacts(self):
        out = []
        for target in ("pathology_fuzzer", "trace_parse_fuzzer"):
            for path in glob.glob(os.path.join(self.findings.artifacts(target), "*")):
                item = target + "-" + os.path.basename(path)
                if not os.path.exists(self.result_path(item)):
                    out.append((item, target, path))
        return sorted(out)

    def archived(self):
        """Manifests of the archive, by id."""
        out = {}
        for kind in KINDS:
            for m in glob.glob(os.path.join(self.archive, kind, "*", "manifest.json")):
                j = read_json(m)
                if j:
                    out[j.get("id", os.path.basename(os.path.dirname(m)))] = j
        return out

    def next_claim(self):
        """The pending claim to triage next: of the kind archived least so
        far (so that a short campaign ends with one of each kind rather than
        many of one), then the smallest trace (fastest to reduce)."""
        pending = self.pending_claims()
        if not pending:
            return None
        counts = {k: 0 for k in KINDS}
        for j in self.archived().values():
            counts[j.get("kind")] = counts.get(j.get("kind"), 0) + 1
        best = None
        for cid in pending:
            if cid not in self.decoded:
                self.decoded[cid] = self.decode_claim(cid)
            decoded, finding = self.decoded[cid]
            if finding is None:
                key = (-1, 0)  # finished at once: not reproduced
            else:
                key = (counts.get(finding["kind"], 0), decoded["trace"]["operators"])
            if best is None or key < best[0]:
                best = (key, cid)
        return best[1]

    # ----- pathology claims ------------------------------------------------
    def work(self, item):
        d = os.path.join(self.findings.triage, item)
        os.makedirs(d, exist_ok=True)
        return d

    def decode_claim(self, cid):
        work = self.work(cid)
        claim = os.path.join(self.findings.claims, cid)
        out = subprocess.run([self.dtrcheck, "fuzz-decode", claim, "-o", os.path.join(work, "original.log"), "--json"],
                             env=self.env, capture_output=True, text=True)
        if out.returncode != 0:
            return {"error": out.stderr.strip(), "trace": {"operators": 0}}, None
        decoded = json.loads(out.stdout)
        write_json(os.path.join(work, "decode.json"), decoded)
        finding = next((f for f in decoded["findings"] if f["id"] == cid), None)
        return decoded, finding

    def finish(self, item, result):
        result["item"] = item
        result["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        write_json(self.result_path(item), result)
        return result

    def claim_time(self, cid):
        """When the claim was written, and seconds since the start of the
        campaign that was running then (time to find)."""
        mtime = os.path.getmtime(os.path.join(self.findings.claims, cid))
        starts = [c["start"] for c in read_jsonl(self.findings.campaigns)
                  if c.get("targets") and c.get("start", 0) <= mtime]  # fuzzing campaigns only
        return mtime, (mtime - max(starts)) if starts else None

    def triage_claim(self, cid, deadline=None):
        if cid not in self.decoded:
            self.decoded[cid] = self.decode_claim(cid)
        decoded, finding = self.decoded.pop(cid)
        work = self.work(cid)
        if finding is None:
            why = decoded.get("error") or "the finding is not in the decoded sweep (other cliff options?)"
            return self.finish(cid, {"status": "not-reproduced", "detail": why})
        kind = finding["kind"]
        base = {"kind": kind, "signature": finding["signature"], "description": finding["description"]}
        if kind not in KINDS:  # simrd-error: the generator made a trace simrd cannot run
            return self.finish(cid, dict(base, status="bug", detail=finding.get("detail", "")))
        target = os.path.join(self.archive, kind, cid)
        if os.path.exists(target):
            return self.finish(cid, dict(base, status="duplicate", archive=rel(target),
                                         detail="signature already archived"))

        reduced = os.path.join(work, "reduced.log")
        cmd = [self.dtrcheck, "reduce", os.path.join(work, "original.log")] + finding["reduce_arguments"] + ["-o", reduced]
        if not self.oracle:
            cmd.append("--no-oracle")
        self.log(f"triage {cid}: {finding['description']}")
        self.log(f"triage {cid}: reducing {decoded['trace']['operators']} operators")
        limit = self.reduce_timeout
        if deadline is not None:
            limit = min(limit, max(1.0, deadline - time.time()))
        started = time.time()
        code = run_interruptible(cmd, os.path.join(work, "reduce.log"), limit, self.env)
        seconds = time.time() - started
        manifest = read_json(os.path.join(work, "reduced.manifest.json"))
        if manifest is None or not manifest.get("after", {}).get("holds"):
            return self.finish(cid, dict(base, status="reduce-failed", exit=code,
                                         detail=f"see {rel(os.path.join(work, 'reduce.log'))}"))
        simrd = manifest["after"].get("simrd", {})
        if simrd.get("available") and not simrd.get("confirmed"):
            return self.finish(cid, dict(base, status="simrd-disagrees", simrd=simrd,
                                         detail="simrd does not confirm the reduced trace: a parity bug"))
        trace_sha = sha256_file(reduced)
        for other in self.archived().values():
            if other.get("kind") == kind and other.get("trace_sha256") == trace_sha and \
                    other.get("config") == manifest["config"]:
                return self.finish(cid, dict(base, status="duplicate", archive=other.get("archive"),
                                             detail="same reduced trace as " + other.get("id", "?")))
        found_at, time_to_find = self.claim_time(cid)
        entry = self.manifest(cid, kind, finding, decoded, manifest, trace_sha, seconds, found_at, time_to_find)
        self.write_archive(target, entry, reduced, os.path.join(self.findings.claims, cid))
        self.log(f"triage {cid}: archived {rel(target)} ({entry['operators']['before']} -> "
                 f"{entry['operators']['after']} operators, simrd {entry['simrd_status']})")
        return self.finish(cid, dict(base, status="archived", archive=rel(target), time_to_find=time_to_find,
                                     operators=entry["operators"], simrd=entry["simrd_status"],
                                     reduce_seconds=round(seconds, 1)))

    def manifest(self, cid, kind, finding, decoded, reduced, trace_sha, seconds, found_at, time_to_find):
        after = reduced["after"]
        runs = after["dtrcheck"]
        names = ["lo", "hi"] if len(runs) == 2 else ["hi"]
        simrd = after.get("simrd", {})
        simrd_status = "confirmed" if simrd.get("confirmed") else "unavailable"
        claim = os.path.join(self.findings.claims, cid)
        with open(claim, "rb") as f:
            input_bytes = f.read()
        return {
            "format": FORMAT,
            "id": cid,
            "kind": kind,
            "property": reduced["property"],
            "signature": finding["signature"],
            "description": finding["description"],
            "summary": after["summary"],
            "trace": "trace.log",
            "trace_sha256": trace_sha,
            "config": reduced["config"],
            **({"factor": reduced["factor"]} if "factor" in reduced else {}),
            "budgets": {n: after[n] for n in names},
            "expected": {n: {"status": r["status"], "overhead": r["overhead"], "budget": r["budget"]}
                         for n, r in zip(names, runs)},
            "dtrcheck": runs,
            "simrd_status": simrd_status,
            "simrd": simrd,
            **({"oom": after["oom"]} if "oom" in after else {}),
            "operators": {"before": reduced["input"]["operators"], "after": reduced["output"]["operators"]},
            "instructions": {"before": reduced["input"]["instructions"], "after": reduced["output"]["instructions"]},
            "reduction": dict(reduced["reduction"], seconds=round(seconds, 1)),
            "original": {
                "case": decoded["case"],
                "lo": finding["lo"],
                "hi": finding["hi"],
                **({"factor": finding["factor"]} if "factor" in finding else {}),
                "baseline": decoded.get("baseline"),
                "cliff_options": decoded.get("options"),
            },
            "fuzzer": {
                "target": "pathology_fuzzer",
                "input": "input.bin",
                "input_base64": base64.b64encode(input_bytes).decode(),
                "found_at": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(found_at)),
                "time_to_find_seconds": None if time_to_find is None else round(time_to_find, 1),
                "host": socket.gethostname(),
            },
            "commands": {
                "decode": "dtrcheck fuzz-decode input.bin -o original.log",
                "reduce": " ".join(["dtrcheck", "reduce", "original.log"] + finding["reduce_arguments"] +
                                   ["-o", "trace.log"]),
                "check": "dtrcheck check-finding manifest.json && dtrcheck check-finding --simrd manifest.json",
            },
            "archive": rel(os.path.join(self.archive, kind, cid)),
        }

    def write_archive(self, target, entry, reduced, claim):
        parent = os.path.dirname(target)
        os.makedirs(parent, exist_ok=True)
        tmp = os.path.join(parent, f".tmp-{os.path.basename(target)}-{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        shutil.copyfile(reduced, os.path.join(tmp, "trace.log"))
        shutil.copyfile(claim, os.path.join(tmp, "input.bin"))
        write_json(os.path.join(tmp, "manifest.json"), entry)
        try:
            os.rename(tmp, target)  # atomic; fails if another campaign archived it first
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)

    # ----- libFuzzer artifacts ---------------------------------------------
    def triage_artifact(self, item, target, path):
        if os.path.basename(path).startswith("slow-unit-"):
            # Not a failure: an input slower than -report_slow_units.
            return self.finish(item, {"status": "slow-input", "target": target, "artifact": rel(path)})
        binary = os.path.join(self.fuzz_bin, target)
        env = {k: v for k, v in self.env.items() if k not in ("DTRCHECK_FUZZ_CLAIMS", "DTRCHECK_FUZZ_ON_FINDING")}
        try:
            out = subprocess.run([binary, "-runs=1", path], env=env, capture_output=True, text=True,
                                 errors="replace", timeout=120)
            text = out.stdout + out.stderr
        except (OSError, subprocess.TimeoutExpired) as e:
            text = f"rerun failed: {e}"
        if "dtrcheck-finding:" in text:
            # The abort of a pathology report (a claim covers it).
            return self.finish(item, {"status": "pathology-artifact", "target": target, "artifact": rel(path)})
        bugs = self.findings.bugs(target)
        os.makedirs(bugs, exist_ok=True)
        kept = os.path.join(bugs, os.path.basename(path))
        shutil.copyfile(path, kept)
        write_atomic(kept + ".txt", text)
        detail = key_line(text)
        self.log(f"triage {item}: BUG {detail or '(no report; see ' + rel(kept) + '.txt)'}")
        return self.finish(item, {"status": "bug", "target": target, "artifact": rel(kept), "detail": detail,
                                  "bug_signature": bug_signature(target, detail),
                                  "reproduce": f"{rel(binary)} {rel(kept)}"})


# What names a crash, most telling first: a sanitizer's report, an
# exception's what(), a fuzzer's own invariant message, libFuzzer's summary.
_KEY_PATTERNS = (re.compile(r"runtime error: .*"), re.compile(r"ERROR: AddressSanitizer: .*"),
                 re.compile(r"ERROR: LeakSanitizer: .*"), re.compile(r"what\(\): .*"),
                 re.compile(r"^(trace_parse_fuzzer|pathology_fuzzer): .*"), re.compile(r"ERROR: libFuzzer: .*"),
                 re.compile(r"SUMMARY: .*"))


def key_line(text):
    for pattern in _KEY_PATTERNS:
        for line in text.splitlines():
            m = pattern.search(line)
            if m:
                return m.group(0).strip()
    return ""


def bug_signature(target, detail):
    """The crash with its input-specific parts (quoted text, numbers,
    addresses) blanked: the same bug found twice has one signature."""
    return target + ": " + re.sub(r"'[^']*'|\"[^\"]*\"|0x[0-9a-f]+|\d+", "_", detail)


def run_interruptible(cmd, log_path, limit, env):
    """Runs cmd, sending SIGINT after `limit` seconds (dtrcheck reduce then
    writes its best trace so far). Ctrl-C of the campaign interrupts it too,
    and raises Interrupted once it has exited."""
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            try:
                return proc.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                return proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            proc.wait()
            raise Interrupted()
