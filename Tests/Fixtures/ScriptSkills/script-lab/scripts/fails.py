import sys
print("about to fail")
print("bad input: expected a number", file=sys.stderr)
sys.exit(3)
