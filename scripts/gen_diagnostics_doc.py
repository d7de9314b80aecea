#!/usr/bin/env python3
"""Writes docs/diagnostics.md from the sources: every compile-time message of
include/ (the string of a static_assert that starts "inplace: <rule>: "), and
every compile-fail test tests/fail/<rule>.fail.<case>.cpp, shown whole: a
program that compiles on its own, and fails with the rule when
INPLACE_SHOULD_FAIL is defined (CTest builds it both ways).

    scripts/gen_diagnostics_doc.py          rewrite docs/diagnostics.md
    scripts/gen_diagnostics_doc.py --check  fail (exit 1) when a message does not
        read "inplace: <rule>: <what is wrong>; fix: <one sentence>", has no
        compile-fail test, or docs/diagnostics.md is not what this script writes

A rule with one message is covered by any test of the rule; a rule with several
messages needs, for each, a test whose "// expect: <fragment>" line quotes it."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent

# The rules ip::check reports (ip::error_kind), in the order of that enum.
KINDS = ["undeclared_input", "bad_op_maps", "dtype_mismatch", "shape_mismatch", "multiple_destroyers",
         "destroys_protected", "destroys_output", "aliasing_hazard", "ordering_cycle", "bad_alias_spec",
         "alias_conflict"]

# What each rule is about, for a reader who meets it for the first time.
ABOUT = {
    "undeclared_input": "An output depends on a symbol that `inputs(...)` does not list.",
    "bad_op_maps": "An op's `view_map` or `destroy_map` is malformed (see tutorial.md, custom ops).",
    "dtype_mismatch": "An in-place result would be stored in storage of another dtype: in a graph, an "
                      "in-place op whose destroyed input has another dtype than its result; on tensors, "
                      "an in-place op or `x op= e` whose result does not fit the destination's dtype.",
    "shape_mismatch": "Static extents do not fit: an in-place result that would need its destroyed "
                      "input to grow (broadcast), or operands that do not broadcast.",
    "multiple_destroyers": "Two nodes overwrite the same root, in regions that may overlap: after "
                           "the first, the second would read a value that no longer exists. Two "
                           "nodes overwriting disjoint regions (even and odd columns) are legal.",
    "destroys_protected": "A node overwrites an `ip::indestructible` input or a constant.",
    "destroys_output": "A value that `outputs(...)` returns is overwritten by an in-place node.",
    "aliasing_hazard": "An in-place node reads the storage it writes through another index pattern "
                       "that may share elements with the ones it writes (`add_inplace(A, transpose(A))`): "
                       "elements would be read after they are written. Regions the patterns prove "
                       "disjoint (even and odd columns) are legal.",
    "ordering_cycle": "No order of the nodes is legal: some node needs a value both before and after "
                      "an in-place node overwrites it, or must run between two nodes that share one fused "
                      "loop (the fused-loop exception of [analysis.md](analysis.md)), or `order(...)` contradicts the rules.",
    "bad_alias_spec": "An `io_alias` is out of range, aliases a value twice, or pairs values of "
                      "different dtype, rank or static extents.",
    "alias_conflict": "An `io_alias` output cannot be computed in its input's storage without "
                      "breaking one of the rules above (named in the diagnostic).",
    "function_arguments": "The arguments of `ip::function`, `ip::check`, `ip::inputs` or `ip::order` "
                          "are not what they take.",
    "foreign_value": "`ip::position(f, v)` asks for a value that is not in `f`'s graph.",
    "runtime_number_in_graph": "A run-time value (a number, a tensor) among a graph's operands: a graph "
                               "is a type and holds none.",
    "argument_count": "A call `f(args...)` with more or fewer arguments than `inputs(...)` lists.",
    "argument_mismatch": "An argument of `f(args...)` does not fit its input's rank and dtype.",
    "variant_dtype": "A registered in-place variant (`ip::inplace_variant_traits`) computes another dtype "
                     "than its op: the rewrite would round every value it computes in place.",
    "must_alias": "An output declared `io_alias<O, I>(ip::must_alias)` lives in input I's storage, "
                  "but that argument is borrowed (an lvalue), not donated.",
    "unused_donation": "A function built with `ip::strict_donation` is called with a donated argument "
                       "(an rvalue) whose storage the call's plan never uses.",
}


# Messages without a compile-fail test, and why: each is a second line of
# defence behind a check that reports first, or needs a program too large for
# a test. (Keep this list short.)
UNTESTED = {
    "assignment through a view of const elements":
        "every public assignment to a const destination reports const_destination first",
    "ip::plan: at most 64 inputs": "needs a function of 65 inputs",
    "an in-place op on tensors must have one output": "needs a multi-output elementwise op on tensors",
}


def string_literals(text):
    """The concatenated string literals of a piece of C++ source."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', text)
    return "".join(parts).replace('\\"', '"')


def messages():
    """(rule, message, header) for every static_assert message of include/."""
    out = []
    for h in sorted((root / "include").rglob("*.hpp")):
        text = h.read_text()
        for m in re.finditer(r"static_assert\(", text):
            depth, i = 1, m.end()
            while depth and i < len(text):
                if text[i] == '"':
                    i = text.index('"', i + 1) if text[i - 1] != "'" else i + 1
                    while text[i - 1] == "\\":
                        i = text.index('"', i + 1)
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            msg = string_literals(text[m.end():i])
            if msg.startswith("inplace:"):
                r = re.match(r"inplace: (\w+): ", msg)
                out.append((r.group(1) if r else "", msg, h.relative_to(root).as_posix()))
    return out


def fail_tests():
    tests = []
    for f in sorted((root / "tests/fail").glob("*.fail.*.cpp")):
        lines = f.read_text().split("\n")
        head = [l for l in lines[: next(i for i, l in enumerate(lines) if not l.startswith("//"))]]
        expect = [l[len("// expect: "):] for l in head if l.startswith("// expect: ")]
        about = " ".join(l[3:] for l in head
                         if not l.startswith(("// Built twice", "// (must fail", "// names:", "// expect:",
                                              "// cascade:", "// where:", "// long:")))
        gaps = [l.split(": ", 1)[1] for l in head if l.startswith(("// cascade:", "// where:", "// long:"))]
        body = "\n".join(lines[len(head):]).strip("\n")
        tests.append({"rule": f.name.split(".fail.")[0], "name": f.name, "expect": expect[0] if expect else None,
                      "about": about, "body": body, "gaps": gaps})
    return tests


def problems(msgs, tests):
    found = []
    by_rule = {}
    for rule, msg, where in msgs:
        by_rule.setdefault(rule, set()).add(msg)
        if not re.fullmatch(r"inplace: \w+: .+; fix: [^;]+\.", msg):
            found.append(f"{where}: not 'inplace: <rule>: <what>; fix: <one sentence>.': {msg}")
    for rule, msgs_of_rule in by_rule.items():
        of_rule = [t for t in tests if t["rule"] == rule]
        for msg in msgs_of_rule:
            if any(u in msg for u in UNTESTED):
                continue
            if len(msgs_of_rule) == 1 and of_rule:
                continue
            if not any(t["expect"] and t["expect"] in msg for t in of_rule):
                found.append(f"no tests/fail/{rule}.fail.<case>.cpp whose '// expect:' line quotes: {msg}")
    for t in tests:
        if t["rule"] not in by_rule:
            found.append(f"tests/fail/{t['name']}: no message of include/ has the rule {t['rule']}")
        elif t["expect"] and not any(t["expect"] in m for m in by_rule[t["rule"]]):
            found.append(f"tests/fail/{t['name']}: its '// expect:' line quotes no message of {t['rule']}")
    return found


def page(msgs, tests):
    rules = KINDS + sorted({r for r, _, _ in msgs} - set(KINDS))
    out = """# Diagnostics

<!-- Generated by scripts/gen_diagnostics_doc.py from include/ and tests/fail/: edit those, then run it. -->

Every compile-time error of the library is one `static_assert` whose message reads

```text
inplace: <rule>: <what is wrong>; fix: <one sentence>
```

Its first lines name the rule, the offending symbols and nodes, your own file
and line, and the fix. For a graph mistake `ip::function` returns a type
`inplace::diagnostic::<rule><names...>` instead of a function; the compiler
instantiates it at your call and prints its names, and nothing else: no
expression type, however large the graph, and no second error. g++ 12 prints,
for the program of [multiple_destroyers](#multiple_destroyers):

```text
main.cpp: In instantiation of 'struct inplace::diagnostic::multiple_destroyers<inplace::diagnostic::name<inplace::fixed_string<2>{"x"}>, inplace::diagnostic::name<inplace::fixed_string<18>{"add_inplace(x, y)"}>, inplace::diagnostic::name<inplace::fixed_string<18>{"mul_inplace(x, y)"}> >':
main.cpp:12:32:   required from here
.../inplace/graph/detail/diagnostics.hpp: error: static assertion failed: inplace: multiple_destroyers: two nodes destroy the same root, in regions that may overlap (the root, then both destroyers, in diagnostic::multiple_destroyers<...>); fix: let one node use the pure op, or chain the two (mul_inplace(add_inplace(x, y), y)).
```

clang 14 prints the message first, then `note: in instantiation of template class
'inplace::diagnostic::multiple_destroyers<inplace::diagnostic::chars<'x'>, ...>' requested here`
at your line: clang prints a string template argument as character codes, so
there the names are character packs.

The program may go on using what failed: the rule's type can be called
(`f(a, b)`, `f.debug(...)`), its result called, indexed, converted or asked for
`data()`, `size()`, `extents()`, and `ip::plan`, `ip::explain`, `ip::to_dot`,
`ip::position` take it; none of these adds an error (see
[multiple_destroyers.fail.then_used.cpp](#multiple_destroyers)). A structured
binding or `std::get` of a failed call's result does (the number of results is
not known there).

`ip::check` reports the graph rules (the first eleven below, `ip::error_kind`)
without failing: `static_assert(ip::check(ip::inputs(x, y), ip::outputs(r)).error ==
ip::error_kind::multiple_destroyers)`, with the names in `.name(i)`.

Each section below gives the rule's message(s) and complete programs, from
`tests/fail/`: each compiles as shown, and fails with the rule when
`INPLACE_SHOULD_FAIL` is defined (the `#ifdef` branch is the mistake, the `#else`
branch its fix). CTest builds both with g++ and clang++ and checks that the
failing one prints, within its first 10 lines and 2 KB, the rule, the fix, the
file's own name and the names of its `// names:` line.
"""
    for rule in rules:
        kind = f"`ip::error_kind::{rule}`, reported by `ip::check`" if rule in KINDS else "a compile error only"
        out += f"\n## {rule}\n\n{ABOUT.get(rule, '')}\n\nKind: {kind}.\n"
        seen = []
        for r, msg, where in msgs:
            if r == rule and msg not in seen:
                seen.append(msg)
        for msg in seen:
            out += f"\n```text\n{msg}\n```\n"
        for t in [t for t in tests if t["rule"] == rule]:
            out += f"\n`{t['name']}`: {t['about']}\n\n```cpp\n{t['body']}\n```\n"
            for gap in t["gaps"]:
                out += f"\nKnown gap: {gap}.\n"
    return out


def main():
    msgs, tests = messages(), fail_tests()
    text = page(msgs, tests)
    doc = root / "docs/diagnostics.md"
    if "--check" in sys.argv[1:]:
        found = problems(msgs, tests)
        if doc.read_text() != text:
            found.append("docs/diagnostics.md is out of date: run scripts/gen_diagnostics_doc.py")
        for p in found:
            print(p)
        print(f"{len(msgs)} messages, {len({r for r, _, _ in msgs})} rules, {len(tests)} compile-fail tests, "
              f"{len(found)} problems")
        sys.exit(1 if found else 0)
    doc.write_text(text)


if __name__ == "__main__":
    main()
