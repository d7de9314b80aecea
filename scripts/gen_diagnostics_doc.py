#!/usr/bin/env python3
"""Writes docs/diagnostics.md from the sources: every compile-time message of
include/ (the string of a static_assert that starts "inplace: <rule>: "), and
every compile-fail test tests/fail/<rule>.fail.<case>.cpp, shown whole: a
program that compiles on its own, and fails with the rule when
INPLACE_SHOULD_FAIL is defined (CTest builds it both ways).

    scripts/gen_diagnostics_doc.py          rewrite docs/diagnostics.md
    scripts/gen_diagnostics_doc.py --check  fail (exit 1) when a message does not
        read "inplace: <rule>: <what is wrong>; fix: <one sentence>", has no
        compile-fail test, a rule has no sentence of what it protects against,
        the rules of ip::error_kind, their table (error_kind.hpp) and their
        diagnostic types (graph_rules in graph/detail/diagnostics.hpp) disagree,
        or docs/diagnostics.md is not what this script writes

The sentences of the error_kind rules are read from their table in
include/inplace/graph/error_kind.hpp (its rows are parsed: {error_kind::<rule>,
"<rule>", "<sentence>"}, string literals concatenated); those of the rules that
are compile errors only are ABOUT below.

A rule with one message is covered by any test of the rule; a rule with several
messages needs, for each, a test whose "// expect: <fragment>" line quotes it."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent

# The rules ip::check reports (ip::error_kind) and what each protects against
# come from their table, include/inplace/graph/error_kind.hpp (see rule_table).
# What each rule that is a compile error only protects against, for a reader
# who meets it for the first time:
ABOUT = {
    "alias_alignment": "Reading a type at an address not aligned for it: a view guarantees only its element's "
                       "alignment, so `ip::alias<U>` of a view to a `U` of larger alignment could misalign it.",
    "alias_extents": "An `ip::alias<U, ip::extents<E...>>` whose size the compiler cannot check: its extents are "
                     "part of its type, so run-time extents go as arguments, `ip::alias<U>(t, e...)`.",
    "alias_not_trivially_copyable": "Reading bytes as objects that were never constructed: only a trivially "
                                    "copyable `U` can live in another type's storage.",
    "alias_of_temporary": "A dangling alias: an alias of a temporary tensor points into storage freed at the end "
                          "of the full expression.",
    "alias_size": "Reading or writing past the storage: an alias whose static extents need more bytes than the "
                  "aliased storage holds.",
    "allocator_alignment": "Storage whose alignment cannot be honoured: an `aligned_allocator` alignment that is "
                           "not a power of two (no allocation can have it) or is below the element's own "
                           "alignment (the elements would be misaligned).",
    "argument_count": "A call that binds its arguments to the wrong inputs: `f(args...)` takes one argument per "
                      "input of `inputs(...)`, in that order.",
    "argument_mismatch": "A call that would read its argument as something else: each argument has its input's "
                         "rank and dtype (a tensor or view for a tensor input, a number for a scalar input), "
                         "since the call converts nothing.",
    "const_destination": "Writing through a view that promises not to: an assignment, a compound assignment or "
                         "`ip::noalias` whose destination is a view of const elements.",
    "destroyed_operand": "An in-place op on tensors with no storage to compute in: its destroyed operand is "
                         "overwritten, so it is a non-const tensor or view, not a number, an expression or a "
                         "const tensor.",
    "dtype": "Values of an element type the ops cannot compute with: an `ip::input` or `ip::scalar` whose dtype "
             "is not arithmetic, `softmax` of integers, `ip::cast<T>` to a `T` that is not a number type.",
    "foreign_value": "A position that means nothing: `ip::position(f, v)` of a value that `f`'s graph does not "
                     "compute.",
    "function_arguments": "A function built from arguments it does not take (`inputs(...)` first, `outputs(...)` "
                          "second, then options; `ip::inputs` of declared symbols, each once; `ip::order` of two "
                          "values or more), which would otherwise fail deep inside the analysis.",
    "inplace_index": "A variant that overwrites no input: `ip::inplace<I>(op)` takes the index of the input to "
                     "overwrite, from 0.",
    "inplace_of_opaque": "An in-place variant whose safety the library cannot see: `ip::inplace<I>` computes in an "
                         "input's storage, which is safe when each element is read before it is written, as in an "
                         "elementwise op; an opaque op registers its variant with `ip::inplace_variant_traits`.",
    "must_alias": "A promise a call cannot keep: an output declared `io_alias<O, I>(ip::must_alias)` is returned "
                  "in input I's storage, so that argument must be donated (an rvalue), not borrowed.",
    "no_inplace_form": "A result stored over an operand of another dtype: an op whose result is not its operands' "
                       "dtype (a comparison, `logical_*`, `isnan`, `isfinite`: `bool`) has no `*_inplace` form, "
                       "nor have `min`, `max` and `where`, which are not registered.",
    "op_arity": "An op beyond the analysis's fixed-size records: an op takes at most 32 inputs.",
    "op_kernel": "An op the runtime cannot run: an opaque op needs a kernel, a view op a view function, and an "
                 "elementwise op of several outputs returns them as one tuple.",
    "op_state": "A graph whose meaning would depend on run-time state: a graph is a type, so an op class is empty "
                "and default-constructible; its parameters belong in its type or in `ip::scalar` inputs.",
    "opaque_on_tensors": "An opaque op run as an elementwise loop: `ip::apply` on tensors fuses elementwise ops, "
                         "and an op that is not elementwise computes wrong values in such a loop.",
    "operand_rank": "An op applied to operands of a rank it is not defined for: `dot` takes vectors and matrices, "
                    "`softmax` and `ip::slice` an operand of rank 1 or more.",
    "plan_arguments": "A plan of a call that cannot happen: `ip::plan(f, markers...)` takes one `ip::donated` or "
                      "`ip::borrowed` per tensor input of `f` (at most 64).",
    "reduce_axis": "Reducing over an axis the operand does not have.",
    "reinterpret_type": "Reading storage as a type it cannot hold: `ip::reinterpret<U>` keeps extents and strides, "
                        "so `U` is trivially copyable, of the element's size, and needs no more alignment than "
                        "the element.",
    "reshape_extents": "An `ip::reshape<E...>` whose size the compiler cannot check: its extents are its type, so "
                       "run-time extents go as arguments, `reshape(x, e...)`.",
    "runtime_number_in_graph": "A run-time value (a number, a tensor) lost in a graph: a graph is a type and "
                               "holds no values, so a constant is a `_c` literal and a run-time value an "
                               "`ip::scalar` or `ip::input`.",
    "slice_step": "A slice of step 0, which walks nowhere (Python refuses it too).",
    "concat_shapes": "Concatenating operands whose other extents differ, or are known only when the program runs: "
                     "the result's regions are laid out while compiling (NumPy refuses other extents too).",
    "dynamic_start": "A dynamic slice whose start is computed inside the graph: the call checks a start before "
                     "anything runs (nothing written when it is out of range), so it must be an input's value.",
    "update_region": "Writing through a broadcast view, whose elements repeat: the update's result would depend on "
                     "the order of the writes (NumPy's broadcast views are read-only too).",
    "update_op": "Combining a region with a value by an op that is not elementwise: `ip::update<Op>` combines each "
                 "element of the region with one element of the value.",
    "tensor_op": "An in-place op on tensors with several outputs: only one of them can live in the destroyed "
                 "operand's storage; a graph runs such an op.",
    "tensor_type": "A tensor the library cannot store: a rank outside 0..8, an element type that is const or not "
                   "trivially copyable, an allocator of another type, a view of references.",
    "unused_donation": "A donation that buys nothing under `ip::strict_donation`: the caller gives up an "
                       "argument (an rvalue) whose storage the call's plan never uses.",
    "variant_dtype": "A rewrite that changes results: a registered in-place variant (`ip::inplace_variant_traits`) "
                     "of another dtype than its op would round every value the rewrite computes in place.",
    "view_axis": "A view of axes the tensor does not have: more ranges and indices than axes, an axis out of "
                 "range for `swap_axes`, `expand_dims`, `squeeze`, `transpose<P...>` or `broadcast_to`, the "
                 "diagonal of fewer than two axes.",
    "view_extents": "An `ip::broadcast_to<E...>` whose extents the compiler cannot check: its extents are its "
                    "type, so run-time extents go as arguments, `ip::broadcast_to(x, e...)`.",
    "view_of_temporary": "A dangling view: a view of a temporary tensor (or of an expression that owns one) "
                         "points into storage freed at the end of the full expression.",
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


def rule_table():
    """(rules, about, problems): the rules of ip::error_kind in the enum's order and what
    each protects against, from the table in include/inplace/graph/error_kind.hpp, and
    what disagrees: the enum, the table's rows and the list of diagnostic types
    (graph_rules in include/inplace/graph/detail/diagnostics.hpp) name the same rules in
    the same order."""
    header = (root / "include/inplace/graph/error_kind.hpp").read_text()
    found = []
    enum = re.search(r"enum class error_kind \{([^}]*)\}", header)
    enumerators = re.findall(r"(\w+),", enum.group(1)) if enum else []
    lit = r'(?:"(?:[^"\\]|\\.)*"\s*)+'
    rows = re.findall(r"\{error_kind::(\w+),\s*(" + lit + r"),\s*(" + lit + r")\}", header)
    names = [string_literals(name) for _, name, _ in rows]
    if [k for k, _, _ in rows] != enumerators or names != enumerators:
        found.append(f"error_kind.hpp: the rows of detail::rules ({names}) are not the enumerators of error_kind, "
                     f"in order ({enumerators})")
    diag = (root / "include/inplace/graph/detail/diagnostics.hpp").read_text()
    listed = re.search(r"using graph_rules = rule_list<([^>]*)>;", diag)
    types = re.findall(r"diagnostic::(\w+)", listed.group(1)) if listed else []
    if types != enumerators[1:]:
        found.append(f"diagnostics.hpp: graph_rules ({types}) does not list the rules of error_kind, in order")
    about = {string_literals(name): string_literals(text) for _, name, text in rows}
    return enumerators[1:], about, found


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


def problems(msgs, tests, kinds, about):
    found = []
    by_rule = {}
    for rule in kinds:
        if not any(r == rule and where.endswith("graph/detail/diagnostics.hpp") for r, _, where in msgs):
            found.append(f"error_kind::{rule}: no diagnostic::{rule} message in graph/detail/diagnostics.hpp")
    for rule in sorted({r for r, _, _ in msgs} | set(kinds)):
        if not about.get(rule):
            found.append(f"{rule}: no sentence of what it protects against (ABOUT in this script, or the "
                         "table of error_kind.hpp)")
    for rule in sorted(set(ABOUT) - {r for r, _, _ in msgs}):
        found.append(f"ABOUT[{rule!r}]: no message of include/ has this rule")
    for rule in sorted(set(ABOUT) & set(kinds)):
        found.append(f"ABOUT[{rule!r}]: an error_kind, described in the table of error_kind.hpp")
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


def page(msgs, tests, kinds, about):
    rules = kinds + sorted({r for r, _, _ in msgs} - set(kinds))
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

`ip::check` reports the graph rules (the first NUM_KINDS below, `ip::error_kind`)
without failing: `static_assert(ip::check(ip::inputs(x, y), ip::outputs(r)).error ==
ip::error_kind::multiple_destroyers)`, with the names in `.name(i)`.

Each section below gives the rule's message(s) and complete programs, from
`tests/fail/`: each compiles as shown, and fails with the rule when
`INPLACE_SHOULD_FAIL` is defined (the `#ifdef` branch is the mistake, the `#else`
branch its fix). CTest builds both with g++ and clang++ and checks that the
failing one prints, within its first 10 lines and 2 KB, the rule, the fix, the
file's own name and the names of its `// names:` line.
""".replace("NUM_KINDS", str(len(kinds)))
    for rule in rules:
        kind = f"`ip::error_kind::{rule}`, reported by `ip::check`" if rule in kinds else "a compile error only"
        out += f"\n## {rule}\n\nProtects against: {about.get(rule, '')[:1].lower()}{about.get(rule, '')[1:]}\n\nKind: {kind}.\n"
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
    kinds, table_about, table_problems = rule_table()
    about = {**ABOUT, **table_about}
    text = page(msgs, tests, kinds, about)
    doc = root / "docs/diagnostics.md"
    if "--check" in sys.argv[1:]:
        found = table_problems + problems(msgs, tests, kinds, about)
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
