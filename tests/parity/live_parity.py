#!/usr/bin/env python3
"""Live parity: a fresh random sample of configurations, run through the real
simrd (oracle/simrd_oracle.py) and replayed through dtrcheck (dtrcheck replay,
which holds the one field-by-field comparison).

Exits 77 (ctest SKIP_RETURN_CODE) when simrd or the traces are not available.
The sampling seed is printed; set DTRCHECK_LIVE_SEED to repeat a sample.
"""
import json, os, random, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SKIP = 77

RUNTIMES = ["RuntimeV1", "RuntimeV2", "RuntimeV2Eager", "RuntimeV2Optimized", "RuntimeV2EagerOptimized"]
NEEDS_OPT = {"DTR", "DTREqClass", "MSPS", "AbESizeStale", "AbESize", "AbEStale", "AbE",
             "AbEqSizeStale", "AbEqSize", "AbEqStale", "AbEq"}
OTHERS = ["DTRLocal", "DTRUnopt", "LRU", "LargestStorage", "RandomStorage", "AbLocalSizeStale",
          "AbLocalSize", "AbLocalStale", "AbLocal", "AbSizeStale", "AbSize", "AbStale", "AbRandom"]


def main():
    dtrcheck, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
    oracle = os.path.join(REPO, "oracle", "simrd_oracle.py")
    probe = subprocess.run([sys.executable, oracle, "run", "/dev/null", "--budget", "1"],
                           capture_output=True, text=True)
    if probe.returncode == 3:
        print("SKIPPED: simrd is not available: " + probe.stderr.strip().splitlines()[0])
        return SKIP
    seed = int(os.environ.get("DTRCHECK_LIVE_SEED", time.time_ns() % 1_000_000_007))
    print(f"live parity sampling seed: {seed} (DTRCHECK_LIVE_SEED={seed} repeats it)")
    rng = random.Random(seed)
    lines = []
    for name in ["unet", "resnet32"]:
        path = subprocess.run([dtrcheck, "trace-path", name], capture_output=True, text=True)
        if path.returncode != 0:
            print("SKIPPED: trace not available: " + path.stderr.strip())
            return SKIP
        cfgs = []
        for _ in range(count // 2):
            rt = rng.choice(RUNTIMES)
            pool = OTHERS + (sorted(NEEDS_OPT) if "Optimized" in rt else [])
            c = {"runtime": rt, "heuristic": rng.choice(pool), "stats": True,
                 # 4 decimals: never one of the recorded ratios
                 "ratio": round(rng.uniform(0.05, 1.0), 4) + 0.00005}
            if rng.random() < 0.4:
                c["overhead_limit"] = round(rng.uniform(1.05, 3.0), 2)
            if c["heuristic"] in ("RandomStorage", "AbRandom"):
                c["seed"] = rng.randrange(1 << 40)
            cfgs.append(c)
        out = subprocess.run([sys.executable, oracle, "batch", path.stdout.strip()],
                             input="".join(json.dumps(c) + "\n" for c in cfgs),
                             capture_output=True, text=True)
        recs = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
        if len(recs) != len(cfgs):
            print(out.stderr)
            return 1
        for c, r in zip(cfgs, recs):
            lines.append({"trace": name, "config": c, "record": r})
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for l in lines:
            f.write(json.dumps(l) + "\n")
    try:
        return subprocess.run([dtrcheck, "replay", f.name]).returncode
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    sys.exit(main())
