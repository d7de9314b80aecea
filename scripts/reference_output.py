"""What the NumPy reference scripts of the examples share: the expected output
of examples/<name>.cpp, printed (no argument), written to
examples/<name>.expected (--write), or compared with it (--check: exit 1 when
it differs, for CTest)."""
import pathlib
import sys


def emit(name, text):
    expected = pathlib.Path(__file__).resolve().parent.parent / "examples" / f"{name}.expected"
    if "--write" in sys.argv[1:]:
        expected.write_text(text)
    elif "--check" in sys.argv[1:]:
        if expected.read_text() != text:
            sys.exit(f"{expected} is not NumPy's output; run scripts/{name}_reference.py --write:\n{text}")
    else:
        sys.stdout.write(text)
