"""Writes the benchmark's instances: realistic tool-call arguments, half valid, half with one typical fault.

usage: python3 schema_make_instances.py OUT.json [COUNT]   (deterministic: seeded)
"""
import json
import random
import sys

rng = random.Random(20261129)
WORDS = ["standup", "review", "lunch", "planning", "retro", "sync", "demo", "1:1", "offsite", "interview"]
NAMES = ["Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances"]


def valid_instance():
    attendees = [
        {"email": f"{name.lower()}@example.com", "name": name, "optional": rng.random() < 0.3}
        for name in rng.sample(NAMES, rng.randint(0, 5))
    ]
    instance = {
        "title": " ".join(rng.sample(WORDS, rng.randint(1, 3))),
        "start": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.choice([0, 15, 30, 45]):02d}:00Z",
        "time": f"{rng.randint(0, 23):02d}:{rng.choice([0, 15, 30, 45]):02d}",
        "priority": rng.choice(["low", "normal", "high"]),
        "attendees": attendees,
    }
    if rng.random() < 0.7:
        instance["duration_minutes"] = rng.choice([15, 30, 45, 60, 90])
    if rng.random() < 0.5:
        instance["location"] = rng.choice([None, "Room 4", "https://meet.example.com/abc"])
    if rng.random() < 0.5:
        instance["tags"] = rng.sample(["work", "team", "q3", "urgent", "external"], rng.randint(1, 3))
    return instance


def invalid_instance():
    instance = valid_instance()
    fault = rng.randrange(8)
    if fault == 0:
        instance["time"] = 1000                      # wrong type
    elif fault == 1:
        instance["time"] = "25:99"                   # pattern
    elif fault == 2:
        del instance["title"]                        # missing required
    elif fault == 3:
        instance["priority"] = "urgent"              # enum
    elif fault == 4:
        instance["duration_minutes"] = 0             # minimum
    elif fault == 5:
        instance["attendees"].append({"name": "Nobody"})  # nested required
    elif fault == 6:
        instance["colour"] = "blue"                  # additionalProperties
    else:
        instance["duration_minutes"] = "30"          # integer as string
    return instance


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    instances = [valid_instance() if i % 2 == 0 else invalid_instance() for i in range(count)]
    with open(out, "w") as handle:
        json.dump(instances, handle)


if __name__ == "__main__":
    main()
