"""Times Python jsonschema and jsonschema-rs on the benchmark schema and instances.

usage: python3 schema_bench.py SCHEMA.json INSTANCES.json MIN_SECONDS
Prints one line per library: "<name> <instances/s> <µs/instance> <valid count>".
"""
import json
import sys
import time


def measure(name, is_valid, instances, min_seconds, repeats=3):
    """Best of `repeats` runs of at least `min_seconds` each (the machine is shared: best is steadiest)."""
    valid = sum(1 for instance in instances if is_valid(instance))
    best = 0.0
    for _ in range(repeats):
        rounds = 0
        start = time.perf_counter()
        while True:
            for instance in instances:
                is_valid(instance)
            rounds += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        best = max(best, rounds * len(instances) / elapsed)
    print(f"{name} {best:.0f} {1e6 / best:.3f} {valid}")


def main():
    schema = json.load(open(sys.argv[1]))
    instances = json.load(open(sys.argv[2]))
    min_seconds = float(sys.argv[3])
    from importlib.metadata import version
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    measure(f"python-jsonschema-{version('jsonschema')}", validator.is_valid, instances, min_seconds)
    try:
        import jsonschema_rs
    except ImportError:
        print("jsonschema-rs missing")
        return
    compiled = jsonschema_rs.Draft202012Validator(schema)
    measure(f"jsonschema-rs-{version('jsonschema-rs')}", compiled.is_valid, instances, min_seconds)


if __name__ == "__main__":
    main()
