"""Times Python jsonschema and jsonschema-rs on the benchmark schema and instances.

usage: python3 schema_bench.py SCHEMA.json INSTANCES.json MIN_SECONDS
Prints one line per library: "<name> <instances/s> <µs/instance> <valid count>".
"""
import json
import sys
import time


def measure(name, is_valid, instances, min_seconds):
    valid = sum(1 for instance in instances if is_valid(instance))
    rounds = 0
    start = time.perf_counter()
    while True:
        for instance in instances:
            is_valid(instance)
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            break
    per_second = rounds * len(instances) / elapsed
    print(f"{name} {per_second:.0f} {1e6 / per_second:.3f} {valid}")


def main():
    schema = json.load(open(sys.argv[1]))
    instances = json.load(open(sys.argv[2]))
    min_seconds = float(sys.argv[3])
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)
    measure(f"python-jsonschema-{jsonschema.__version__ if hasattr(jsonschema, '__version__') else ''}",
            validator.is_valid, instances, min_seconds)
    try:
        import jsonschema_rs
    except ImportError:
        print("jsonschema-rs missing")
        return
    compiled = jsonschema_rs.Draft202012Validator(schema)
    version = getattr(jsonschema_rs, "__version__", "")
    measure(f"jsonschema-rs-{version}", compiled.is_valid, instances, min_seconds)


if __name__ == "__main__":
    main()
