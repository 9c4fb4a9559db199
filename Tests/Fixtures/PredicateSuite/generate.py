#!/usr/bin/env python3
"""Writes suite.json: the predicate suite's rows, and for each predicate the rows Core Data's
SQL store selects, computed here by an evaluator written apart from the lab's compiler.

The evaluator follows NSPredicate's in-memory semantics where Core Data's SQL agrees, and SQL's
where Core Data's statement decides (docs/predicates.md gives each rule and its evidence):
three-valued logic (a comparison with a NULL column is unknown, and NOT unknown is unknown),
`x != v` true for a nil x (Core Data writes `(x <> ? OR x IS NULL)`), string operators false
on nil, `IN` lists with SQL's NULL rules, ANY as `Z_PK IN (SELECT owner ...)` (unknown when a
matching element has no owner), NONE/ALL as `NOT IN (... owner IS NOT NULL ...)`, and a bare
key path inside SUBQUERY naming the outer object.

Cases drawn from other implementations' suites name them in "source":
- GNUstep libs-base Tests/base/NSPredicate (subquery.m, comparisonOptions.m, contains.m,
  matchesLineAnchors.m), https://github.com/gnustep/libs-base
- Cappuccino Tests/Foundation/CPPredicateTest.j, https://github.com/cappuccino/cappuccino
- yusuga/TestNSPredicate (XCTests run on Apple's Foundation), https://github.com/yusuga/TestNSPredicate

Run from this folder: python3 generate.py (dev tooling; `make test` reads suite.json only).
"""
import json
import re
import struct
import unicodedata

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]

PEOPLE = [
    # pk, name, nick, age, score, bio, born, weight
    (1, "Ann", "ann", 30, 1.5, "line one\nline two", 0.0, f32(1.7)),
    (2, "ann", None, 41, 2.0, "", 100.0, f32(60.5)),
    (3, "Åsa", "Asa", None, 3.25, "café", None, None),
    (4, "Bob", "", 25, None, None, -50.0, f32(80.25)),
    (5, None, "x", 41, 0.0, "Multi\nLine\nText", 300.0, f32(1.7)),
    (6, "Zoë", "zoe", 9, -1.0, "abc", 400.0, f32(0.1)),
    (7, "BOB", "b*b", 100, 10.0, "a.b", 500.0, None),
    (8, "", "ann", 0, 2.5, "a\nb", 600.0, f32(2.0)),
]
PETS = [  # pk, name, age, owner
    (1, "Rex", 3, 1), (2, "rex", 5, 1), (3, "Tom", None, 2), (4, None, 7, 4),
    (5, "Éclair", 1, 6), (6, "Odd", 2, None), (7, "Tom", 12, 7),
]
CLUBS = [(1, "Chess"), (2, "chess"), (3, "Empty")]
LINKS = [(1, 1), (1, 2), (2, 1), (5, 2), (7, 1)]  # (person, club)
FIELDS = ["pk", "name", "nick", "age", "score", "bio", "born", "weight"]
people = [dict(zip(FIELDS, p)) for p in PEOPLE]
pets = [dict(zip(["pk", "name", "age", "owner"], p)) for p in PETS]
clubs = [dict(zip(["pk", "name"], c)) for c in CLUBS]

# ---- three-valued logic ----
def NOT(a):
    return None if a is None else not a

def AND(*xs):
    if any(x is False for x in xs):
        return False
    return None if any(x is None for x in xs) else True

def OR(*xs):
    if any(x is True for x in xs):
        return True
    return None if any(x is None for x in xs) else False

# ---- strings ----
def fold(s, opts):
    if "d" in opts:
        s = "".join(ch for ch in unicodedata.normalize("NFD", s) if not unicodedata.combining(ch))
    if "c" in opts:
        s = s.lower()
    return unicodedata.normalize("NFC", s)

def search(text, pattern, opts, kind):
    if text is None or pattern is None or pattern == "":
        return False
    t, p = fold(text, opts), fold(pattern, opts)
    return {"BEGINSWITH": t.startswith(p), "ENDSWITH": t.endswith(p), "CONTAINS": p in t}[kind]

def like(text, pattern, opts):
    if text is None or pattern is None:
        return False
    t, p = fold(text, opts), fold(pattern, opts)
    rx, i = "", 0
    while i < len(p):
        ch = p[i]
        if ch == "\\" and i + 1 < len(p):
            rx += re.escape(p[i + 1]); i += 2; continue
        rx += ".*" if ch == "*" else "." if ch == "?" else re.escape(ch)
        i += 1
    return re.fullmatch(rx, t, re.S) is not None

def matches(text, pattern, opts):
    if text is None or pattern is None or pattern == "":
        return False
    t, p = fold(text, opts), fold(pattern, opts)
    return re.fullmatch(p, t, re.S | re.M) is not None

def compare(a, b, op):
    """SQL comparison of two non-function values: unknown when either is NULL."""
    if a is None or b is None:
        return None
    return {"==": a == b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]

CASES = []
SEEN = set()
def case(predicate, rows, entity="Person", arguments=None, source=None):
    key = (entity, predicate, json.dumps(arguments))
    if key in SEEN:
        return
    SEEN.add(key)
    c = {"predicate": predicate, "entity": entity, "rows": sorted(rows)}
    if arguments is not None:
        c["arguments"] = arguments
    if source:
        c["source"] = source
    CASES.append(c)

def select(fn, objects=people):
    return [o["pk"] for o in objects if fn(o) is True]

def lit(v):
    if v is None:
        return "nil"
    if isinstance(v, str):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"
    return repr(v)

# ---- 1. plain comparisons on numbers ----
for field, values in [("age", [0, 9, 25, 30, 41, 100, 7]), ("score", [0.0, 1.5, 2.5, -1.0, 3])]:
    for v in values:
        for op in ["==", "<", "<=", ">", ">="]:
            case(f"{field} {op} {v}", select(lambda o, op=op, v=v: compare(o[field], v, op)))
        case(f"{field} != {v}", select(lambda o, v=v: OR(compare(o[field], v, "==") is False, o[field] is None)))
        case(f"NOT ({field} == {v})", select(lambda o, v=v: NOT(compare(o[field], v, "=="))))
        case(f"{v} < {field}", select(lambda o, v=v: compare(v, o[field], "<")))
    case(f"{field} == nil", select(lambda o: o[field] is None))
    case(f"{field} != nil", select(lambda o: o[field] is not None))
    case(f"NOT ({field} == nil)", select(lambda o: o[field] is not None))

# ---- 2. strings: operators x values x options ----
STRING_VALUES = ["ann", "Ann", "a", "", "Åsa", "asa", "zoe", "b", "BOB", "o"]
OPTIONS = ["", "[c]", "[d]", "[cd]"]
for field in ["name", "nick"]:
    for v in STRING_VALUES:
        for o in OPTIONS:
            opts = o.strip("[]")
            for kind in ["BEGINSWITH", "ENDSWITH", "CONTAINS"]:
                case(f"{field} {kind}{o} {lit(v)}", select(lambda p, kind=kind, v=v, opts=opts: search(p[field], v, opts, kind)))
            if o:
                # NSCoreDataStringCompare(...) = 0: NULL (unknown) for a nil column.
                case(f"{field} =={o} {lit(v)}",
                     select(lambda p, v=v, opts=opts: None if p[field] is None else fold(p[field], opts) == fold(v, opts)))
            else:
                case(f"{field} == {lit(v)}", select(lambda p, v=v: compare(p[field], v, "==")))
        case(f"{field} != {lit(v)}", select(lambda p, v=v: OR(p[field] != v, p[field] is None)))
    for op in ["<", ">", "<=", ">="]:
        for v in ["B", "a", "ann", "Zoë"]:
            case(f"{field} {op} {lit(v)}", select(lambda p, op=op, v=v: compare(p[field], v, op)))
    case(f"{field} == nil", select(lambda p: p[field] is None))
    case(f"{field} == ''", select(lambda p: compare(p[field], "", "==")))

# ---- 3. LIKE and MATCHES (line breaks, anchors, wildcards) ----
for pattern in ["a*", "*n", "?nn", "*o*", "b\\\\*b", "*", "", "A*", "*line*", "a?b"]:
    for o in ["", "[c]", "[cd]"]:
        for field in ["name", "nick", "bio"]:
            case(f"{field} LIKE{o} {lit(pattern)}", select(lambda p, pattern=pattern, o=o: like(p[field], pattern, o.strip("[]"))))
for pattern in ["a.b", ".*^b$", "^a$.*", "^b$", ".*two", "line.*", "[A-Z].*", "a\\\\.b", "", ".*\\\\n.*", "M.*t", "(?i)multi.*"]:
    for o in ["", "[c]"]:
        case(f"bio MATCHES{o} {lit(pattern)}", select(lambda p, pattern=pattern, o=o: matches(p["bio"], pattern, o.strip("[]"))),
             source="GNUstep libs-base Tests/base/NSPredicate/matchesLineAnchors.m" if pattern in ["a.b", ".*^b$", "^a$.*", "^b$"] else None)

# ---- 4. IN, BETWEEN, nil in lists, strings on the right ----
for values in [[30, 41], [41, None], [None], [], [9, 100, 1000], [25]]:
    text = "{" + ", ".join(lit(v) for v in values) + "}"
    def member(o, values=values):
        a = o["age"]
        if not values:
            return False
        if a is None:
            return None
        if a in [v for v in values if v is not None]:
            return True
        return None if None in values else False
    case(f"age IN {text}", select(member))
    case(f"NOT (age IN {text})", select(lambda o, member=member: NOT(member(o))))
    case(f"age IN[c] {text}", select(member))
for values in [["Ann", "Bob"], ["ann", None], ["Zoë", "x"]]:
    text = "{" + ", ".join(lit(v) for v in values) + "}"
    def smember(o, values=values):
        a = o["name"]
        if a is None:
            return None
        if a in [v for v in values if v is not None]:
            return True
        return None if None in values else False
    case(f"name IN {text}", select(smember))
    case(f"name IN %@", select(smember), arguments=[values])
for lo, hi in [(9, 30), (30, 30), (41, 100), (50, 10)]:
    case(f"age BETWEEN {{{lo}, {hi}}}", select(lambda o, lo=lo, hi=hi: AND(compare(o["age"], lo, ">="), compare(o["age"], hi, "<="))))
    case(f"NOT (age BETWEEN {{{lo}, {hi}}})", select(lambda o, lo=lo, hi=hi: NOT(AND(compare(o["age"], lo, ">="), compare(o["age"], hi, "<=")))))
for hay in ["Annabel", "xBOBx", "zoë", "abc"]:
    for o in ["", "[c]", "[cd]"]:
        case(f"name IN{o} {lit(hay)}", select(lambda p, hay=hay, o=o: search(hay, p["name"], o.strip("[]"), "CONTAINS")),
             source="GNUstep libs-base Tests/base/NSPredicate/contains.m" if o == "" else None)
for needle in ["line", "a", "Multi"]:
    case(f"{lit(needle)} IN bio", select(lambda p, needle=needle: search(p["bio"], needle, "", "CONTAINS")))

# ---- 5. options on numbers (Core Data compares as text) and arithmetic ----
case("age ==[c] 41", select(lambda o: None if o["age"] is None else str(o["age"]) == "41"),
     source="GNUstep libs-base Tests/base/NSPredicate/comparisonOptions.m")
case("age ==[c] 42", [], source="GNUstep libs-base Tests/base/NSPredicate/comparisonOptions.m")
case("name ==[c] 'ann'", select(lambda o: None if o["name"] is None else o["name"].lower() == "ann"),
     source="GNUstep libs-base Tests/base/NSPredicate/comparisonOptions.m")
for expr, fn in [
    ("age + 1 > 40", lambda o: compare(None if o["age"] is None else o["age"] + 1, 40, ">")),
    ("age * 2 == 82", lambda o: compare(None if o["age"] is None else o["age"] * 2, 82, "==")),
    ("age - 10 < 0", lambda o: compare(None if o["age"] is None else o["age"] - 10, 0, "<")),
    ("age / 2 == 20", lambda o: compare(None if o["age"] is None else o["age"] // 2, 20, "==")),
    ("-age < -30", lambda o: compare(None if o["age"] is None else -o["age"], -30, "<")),
    ("age > 2 * 3 + 4", lambda o: compare(o["age"], 10, ">")),
    ("age + score > 40", lambda o: compare(None if o["age"] is None or o["score"] is None else o["age"] + o["score"], 40, ">")),
    ("(age) == (41)", lambda o: compare(o["age"], 41, "==")),
    ("((age)) >= ((30))", lambda o: compare(o["age"], 30, ">=")),
    ("(age == 41)", lambda o: compare(o["age"], 41, "==")),
    ("age == (40 + 1)", lambda o: compare(o["age"], 41, "==")),
    ("(age > 20) AND ((name) BEGINSWITH ('B'))", lambda o: AND(compare(o["age"], 20, ">"), search(o["name"], "B", "", "BEGINSWITH"))),
    ("age == {41, 30}[FIRST]", lambda o: compare(o["age"], 41, "==")),
    ("age == {41, 30}[LAST]", lambda o: compare(o["age"], 30, "==")),
    ("age == {41, 30}[SIZE] + 7", lambda o: compare(o["age"], 9, "==")),
    ("age == {41, 30}[1]", lambda o: compare(o["age"], 30, "==")),
    ("age < {1, 2, 3}.@sum", lambda o: compare(o["age"], 6, "<")),
    ("age == CAST('41', 'NSNumber')", lambda o: compare(o["age"], 41, "==")),
    ("born > CAST(150, 'NSDate')", lambda o: compare(o["born"], 150.0, ">")),
    ("born < CAST(0, 'NSDate') + 1", lambda o: compare(o["born"], 1.0, "<")),
    ("modulus:by:(age, 2) == 1", lambda o: compare(None if o["age"] is None else o["age"] % 2, 1, "==")),
    ("multiply:by:(age, 2) > 60", lambda o: compare(None if o["age"] is None else o["age"] * 2, 60, ">")),
    ("age == sum:({20, 21})", lambda o: compare(o["age"], 41, "==")),
    ("age > average:({10, 20}) AND age < max:(50, 60)", lambda o: AND(compare(o["age"], 15, ">"), compare(o["age"], 60, "<"))),
    ("age BETWEEN[c] {9, 30}", lambda o: AND(compare(o["age"], 9, ">="), compare(o["age"], 30, "<="))),
    ("weight == 1.7", lambda o: compare(o["weight"], 1.7, "==")),
    ("weight > 1.69 AND weight < 1.71", lambda o: AND(compare(o["weight"], 1.69, ">"), compare(o["weight"], 1.71, "<"))),
    ("weight == %@", lambda o: compare(o["weight"], f32(1.7), "==")),
]:
    case(expr, select(fn), arguments=[f32(1.7)] if "%@" in expr else None)

# ---- 6. grammar: keywords, %K, #, SELF, compounds ----
for text, fn, args in [
    ("TRUEPREDICATE", lambda o: True, None),
    ("FALSEPREDICATE", lambda o: False, None),
    ("truepredicate AND age > 30", lambda o: compare(o["age"], 30, ">"), None),
    ("%K == %@", lambda o: compare(o["name"], "Ann", "=="), ["name", "Ann"]),
    ("SELF.%K > %d", lambda o: compare(o["age"], 30, ">"), ["age", 30]),
    ("%2$K > %1$@", lambda o: compare(o["age"], 30, ">"), [30, "age"]),
    ("#name == 'Bob'", lambda o: compare(o["name"], "Bob", "=="), None),
    ("SELF.name == 'Bob'", lambda o: compare(o["name"], "Bob", "=="), None),
    ("self == %@", lambda o: o["pk"] == 3, [3]),
    ("SELF IN {1, 5, 9}", lambda o: o["pk"] in (1, 5, 9), None),
    ("age > 20 && age < 50 || name == 'Zoë'", lambda o: OR(AND(compare(o["age"], 20, ">"), compare(o["age"], 50, "<")), compare(o["name"], "Zoë", "==")), None),
    ("NOT age > 30", lambda o: NOT(compare(o["age"], 30, ">")), None),
    ("! (age > 30 OR name == 'Bob')", lambda o: NOT(OR(compare(o["age"], 30, ">"), compare(o["name"], "Bob", "=="))), None),
    ("not (nick == nil) and not (name == nil)", lambda o: o["nick"] is not None and o["name"] is not None, None),
    ("age => 41 AND age =< 41", lambda o: compare(o["age"], 41, "=="), None),
    ("age <> 41", lambda o: OR(compare(o["age"], 41, "==") is False, o["age"] is None), None),
    ("age = 41", lambda o: compare(o["age"], 41, "=="), None),
    ("name == \"Bob\"", lambda o: compare(o["name"], "Bob", "=="), None),
    ("name == 'Zo\\u00eb'", lambda o: compare(o["name"], "Zoë", "=="), None),
    ("bio == 'a\\nb'", lambda o: compare(o["bio"], "a\nb", "=="), None),
    ("bio CONTAINS '\\n'", lambda o: search(o["bio"], "\n", "", "CONTAINS"), None),
    ("name ==[c] nil", lambda o: o["name"] is None, None),
    ("name CONTAINS nil", lambda o: False, None),
    ("NOT (name LIKE nil)", lambda o: True, None),
    ("name MATCHES nil", lambda o: False, None),
    ("age BETWEEN %@", lambda o: AND(compare(o["age"], 9, ">="), compare(o["age"], 30, "<=")), [[9, 30]]),
    ("age IN %@", lambda o: False, [[]]),
    ("name IN ''", lambda o: True, None),
]:
    case(text, select(fn), arguments=args)

# ---- 7. to-many: ANY / ALL / NONE / aggregates / SUBQUERY / membership ----
def pets_of(o):
    return [p for p in pets if p["owner"] == o["pk"]]

def clubs_of(o):
    return [c for c in clubs if (o["pk"], c["pk"]) in LINKS]

def any_pet(test):
    matching = [p for p in pets if test(p) is True]
    owners = {p["owner"] for p in matching}
    def f(o):
        if o["pk"] in owners:
            return True
        return None if None in owners else False
    return f

def none_pet(test):
    return lambda o: not any(test(p) is True for p in pets_of(o))

def all_pet(test):
    return lambda o: all(test(p) is True for p in pets_of(o))

PET_TESTS = [
    ("name == 'Rex'", lambda p: compare(p["name"], "Rex", "==")),
    ("name ==[c] 'rex'", lambda p: None if p["name"] is None else p["name"].lower() == "rex"),
    ("name BEGINSWITH[cd] 'e'", lambda p: search(p["name"], "e", "cd", "BEGINSWITH")),
    ("age > 2", lambda p: compare(p["age"], 2, ">")),
    ("age == nil", lambda p: p["age"] is None),
    ("age IN {1, 7}", lambda p: None if p["age"] is None else p["age"] in (1, 7)),
]
for text, test in PET_TESTS:
    key, rest = text.split(" ", 1)
    case(f"ANY pets.{key} {rest}", select(any_pet(test)))
    case(f"SOME pets.{key} {rest}", select(any_pet(test)))
    case(f"NONE pets.{key} {rest}", select(none_pet(test)))
    case(f"ALL pets.{key} {rest}", select(all_pet(test)))
    case(f"NOT (ANY pets.{key} {rest})", select(lambda o, f=any_pet(test): NOT(f(o))))
    case(f"SUBQUERY(pets, $p, $p.{key} {rest}).@count > 0", select(lambda o, test=test: any(test(p) is True for p in pets_of(o))))
for n in [0, 1, 2]:
    case(f"pets.@count == {n}", select(lambda o, n=n: len(pets_of(o)) == n))
    case(f"pets[SIZE] > {n}", select(lambda o, n=n: len(pets_of(o)) > n))
    case(f"clubs.@count >= {n}", select(lambda o, n=n: len(clubs_of(o)) >= n))
def agg(values, kind):
    vals = [v for v in values if v is not None]
    if kind == "sum":
        return sum(vals)
    if not vals:
        return None
    return {"avg": sum(vals) / len(vals), "min": min(vals), "max": max(vals)}[kind]
for kind, v in [("avg", 4), ("sum", 5), ("min", 2), ("max", 6)]:
    case(f"pets.@{kind}.age > {v}", select(lambda o, kind=kind, v=v: compare(agg([p["age"] for p in pets_of(o)], kind), v, ">")))
case("count:(pets) == 2", select(lambda o: len(pets_of(o)) == 2))
case("ANY clubs.name == 'Chess'", select(lambda o: any(c["name"] == "Chess" for c in clubs_of(o))))
case("ANY clubs.name ==[c] 'CHESS'", select(lambda o: any(c["name"].lower() == "chess" for c in clubs_of(o))))
case("NONE clubs.name == 'chess'", select(lambda o: not any(c["name"] == "chess" for c in clubs_of(o))))
case("ALL clubs.name == 'Chess'", select(lambda o: all(c["name"] == "Chess" for c in clubs_of(o))))
case("'Rex' IN pets.name", select(any_pet(lambda p: compare(p["name"], "Rex", "=="))))
case("%@ IN pets.age", select(any_pet(lambda p: compare(p["age"], 5, "=="))), arguments=[5])
case("pets.name CONTAINS 'Tom'", select(any_pet(lambda p: compare(p["name"], "Tom", "=="))))
case("pets CONTAINS %@", select(lambda o: o["pk"] == 1), arguments=[2])
case("%@ IN clubs", select(lambda o: (o["pk"], 2) in LINKS), arguments=[2])
case("ANY pets == %@", select(lambda o: o["pk"] == 4), arguments=[4])
case("SUBQUERY(pets, $p, $p.age > 2 AND $p.name != nil).@count == 2", select(lambda o: sum(1 for p in pets_of(o) if (p["age"] or 0) > 2 and p["name"] is not None) == 2))
# A key path without the variable is the outer object's (GNUstep subquery.m; Apple's NSSubqueryExpression).
case("SUBQUERY(pets, $p, $p.age > age).@count > 0",
     select(lambda o: any(compare(p["age"], o["age"], ">") is True for p in pets_of(o))),
     source="GNUstep libs-base Tests/base/NSPredicate/subquery.m")
case("SUBQUERY(pets, $p, $p.age < 10 AND name BEGINSWITH 'A').@count >= 1",
     select(lambda o: search(o["name"], "A", "", "BEGINSWITH") and any(compare(p["age"], 10, "<") is True for p in pets_of(o))))
case("SUBQUERY(pets, $p, SELF.age > 20).@count == pets.@count",
     select(lambda o: (len(pets_of(o)) if compare(o["age"], 20, ">") is True else 0) == len(pets_of(o))))
case("SUBQUERY(clubs, $c, $c.name BEGINSWITH 'C').@count == 1", select(lambda o: sum(1 for c in clubs_of(o) if c["name"].startswith("C")) == 1))
case("SUBQUERY(pets, $p, $p.name MATCHES 'R.x')[SIZE] == 1", select(lambda o: sum(1 for p in pets_of(o) if matches(p["name"], "R.x", "")) == 1),
     source="Cappuccino Tests/Foundation/CPPredicateTest.j ([SIZE] of a SUBQUERY)")
# Pets, fetched themselves: through the to-one owner.
def owner(p):
    return next((o for o in people if o["pk"] == p["owner"]), None)
for text, fn in [
    ("owner.name == 'Ann'", lambda p: compare(owner(p)["name"] if owner(p) else None, "Ann", "==")),
    ("owner == nil", lambda p: p["owner"] is None),
    ("owner == %@", lambda p: p["owner"] == 1),
    ("%K.%K == %@", lambda p: compare(owner(p)["name"] if owner(p) else None, "Ann", "==")),
    ("owner.%K BEGINSWITH[c] %@", lambda p: search(owner(p)["name"] if owner(p) else None, "a", "c", "BEGINSWITH")),
    ("owner.age > age * 5", lambda p: compare(owner(p)["age"] if owner(p) else None, None if p["age"] is None else p["age"] * 5, ">")),
    ("owner.pets.@count > 1", lambda p: owner(p) is not None and len(pets_of(owner(p))) > 1),
    ("name LIKE[cd] 'e*'", lambda p: like(p["name"], "e*", "cd")),
    ("ANY owner.clubs.name == 'Chess'", lambda p: owner(p) is not None and any(c["name"] == "Chess" for c in clubs_of(owner(p)))),
]:
    arguments = {"owner == %@": [1], "%K.%K == %@": ["owner", "name", "Ann"], "owner.%K BEGINSWITH[c] %@": ["name", "a"]}
    case(text, select(fn, pets), entity="Pet", arguments=arguments.get(text))

# ---- refusals: what Apple's parser or Core Data's SQL store refuses, with the column ----
REFUSALS = [
    ("age < nil", 7, "illegal comparison with NULL"),
    ("nil == name", 1, "can't use NULL on left hand side"),
    ("name BEGINSWITH nil", 17, "unimplemented SQL generation for predicate"),
    ("name ENDSWITH %@", 15, "unimplemented SQL generation for predicate"),
    ("FUNCTION(name, 'length') > 1", 1, "Unsupported function expression"),
    ("pets.@distinctUnionOfObjects.name == 'a'", 6, "Unsupported KVC aggregate in keypath"),
    ("pets[FIRST].age > 1", 5, "Unsupported function type passed to SQL store"),
    ("age ** 2 > 4", 1, "Unsupported function type passed to SQL store"),
    ("size == 3", 1, "'size' is a reserved word"),
    ("age >", 6, "expected a value after '>'"),
    ("(age > 3", 9, "expected ')' to close the '(' at column 1"),
    ("age == (3", 10, "expected ')' to close the '(' at column 8"),
    ("age > 3)", 8, "unexpected ')' after a complete predicate"),
    ("age IN 5", 8, "IN needs an array, a to-many relationship or a string on the right"),
    ("name CONTAINS 5", 15, "CONTAINS needs a string"),
    ("age BEGINSWITH 'a'", 1, "BEGINSWITH compares strings"),
    ("pets.name == 'Rex' AND pets == 3", 24, "to-many"),
    ("ANY age > 3", 1, "ANY needs a key path through a to-many relationship"),
    ("$x := 3", 4, "a variable assignment"),
    ("%K == 1", 1, "is not a key path"),
    ("name ==[x] 'a'", 9, "unknown option '[x]'"),
    ("'abc", 1, "unterminated string"),
    ("age == 1 age", 10, "unexpected 'age' after a complete predicate"),
    ("SUBQUERY(pets, $p, age > 1) > 0", 1, "a SUBQUERY is a collection"),
    ("$q.age > 1", 1, "unknown variable '$q'"),
    ("sqrt:(age) > 2", 1, "Unsupported function type passed to SQL store"),
    ("modulus:by:(age) > 2", 1, "modulus:by: takes 2 arguments, not 1"),
    ("age == {1, 2}[5]", 15, "index 5 is outside the array of 2"),
]
refusals = []
for text, column, message in REFUSALS:
    r = {"predicate": text, "entity": "Person", "column": column, "message": message}
    if text == "name ENDSWITH %@":
        r["arguments"] = [None]
    if text == "%K == 1":
        r["arguments"] = ["na me"]
    refusals.append(r)

suite = {
    "comment": "Written by generate.py; see its docstring. Rows are primary keys.",
    "rows": {
        "Person": [dict(p) for p in people],
        "Pet": [dict(p) for p in pets],
        "Club": [dict(c) for c in clubs],
        "Person.clubs": [list(l) for l in LINKS],
    },
    "cases": CASES,
    "refusals": refusals,
}
with open("suite.json", "w", encoding="utf-8") as f:
    json.dump(suite, f, ensure_ascii=False, indent=1)
print(len(CASES), "cases,", len(refusals), "refusals")
