"""String algorithms as stdin/stdout programs in Python, C, C++ or JavaScript.

Templates (parameters vary the notation, the matching rule and what is asked):

- **run_length**: encode a word as runs, or decode runs, with the count before or after the letter
  and runs of one written with or without their count;
- **pattern_search**: occurrences of a pattern in a text with up to E mismatches: how many, how
  many without overlap, the first or last position;
- **anagram_groups**: words grouped by their multiset (or set) of letters: how many groups, the
  largest group, the words alone in their group, the pairs in one group;
- **brackets**: strings over a generated set of bracket kinds: the nesting depth of a balanced
  string (-1 otherwise) or the longest balanced block;
- **palindromes**: the longest palindromic block, how many blocks (or distinct blocks) are
  palindromes, of any, odd or even length; the longest palindromic subsequence;
- **rotations**: the smallest or largest rotation (or its position), with or without reversal,
  and how many distinct rotations a word has.

Multi-test (T cases in one input, one answer line each). Levels add templates and grow the
strings. Expected answers come from trusted Python references in this module.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code.polyglot import (
    StdioPolyglotTask,
    StdioTemplate,
    c_program,
    js_program,
    python_program,
    stdio_problem,
)


def _word(rng: random.Random, length: int, letters: str) -> str:
    return "".join(rng.choice(letters) for _ in range(length))


# --- run-length coding ------------------------------------------------------------------------

class RunLength(StdioTemplate):
    name = "run_length"
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"direction": rng.choice(["encode", "decode"]), "count_first": rng.random() < 0.5,
                "ones": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        run = "the count followed by the letter" if p["count_first"] else "the letter followed by the count"
        ones = ("a run of one letter is written with the count 1" if p["ones"]
                else "a run of one letter is written as the letter alone, without a count")
        example = self._encode("aaabcc", p)
        what = ("a word of lowercase letters. Print its run-length encoding"
                if p["direction"] == "encode" else
                "a run-length encoding of a word. Print the word it encodes")
        return (f"Each test is one line with {what}. In this encoding, each maximal run of equal letters is written "
                f"as {run} (in decimal); {ones}. For example, aaabcc is encoded as {example}.")

    @staticmethod
    def _encode(word: str, p: dict[str, Any]) -> str:
        out, i = [], 0
        while i < len(word):
            j = i
            while j < len(word) and word[j] == word[i]:
                j += 1
            count = str(j - i) if p["ones"] or j - i > 1 else ""
            out.append(count + word[i] if p["count_first"] else word[i] + count)
            i = j
        return "".join(out)

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        letters, word = "abcdefgh", ""
        for _ in range(rng.randint(1, size)):
            letter = rng.choice([x for x in letters if not word or x != word[-1]])
            word += letter * (rng.randint(1, 12) if rng.random() < 0.6 else 1)
        return word

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return (case if p["direction"] == "encode" else self._encode(case, p)) + "\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        return self._encode(case, p) if p["direction"] == "encode" else case

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        first, ones = p["count_first"], p["ones"]
        if p["direction"] == "encode":
            count_py = "str(j - i)" if ones else 'str(j - i) if j - i > 1 else ""'
            piece_py = f"({count_py}) + s[i]" if first else f"s[i] + ({count_py})"
            python = python_program(f"""
def solve():
    s = next_word()
    out, i = [], 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append({piece_py})
        i = j
    return "".join(out)
""", p)
            show_c = "1" if ones else "j - i > 1"
            order_c = ("if (show) length += sprintf(out + length, \"%d\", j - i);\n        out[length++] = s[i];"
                       if first else
                       "out[length++] = s[i];\n        if (show) length += sprintf(out + length, \"%d\", j - i);")
            c = c_program(f"""
static char out[20000];

static void solve(void) {{
    const char *s = next_word();
    int n = (int)strlen(s), length = 0, i = 0;
    while (i < n) {{
        int j = i;
        while (j < n && s[j] == s[i]) j++;
        int show = {show_c};
        {order_c}
        i = j;
    }}
    out[length] = '\\0';
    puts(out);
}}
""", p)
            count_js = "String(j - i)" if ones else '(j - i > 1 ? String(j - i) : "")'
            piece_js = f"{count_js} + s[i]" if first else f"s[i] + {count_js}"
            javascript = js_program(f"""
function solve() {{
    const s = nextWord();
    let out = "";
    for (let i = 0; i < s.length; ) {{
        let j = i;
        while (j < s.length && s[j] === s[i]) j++;
        out += {piece_js};
        i = j;
    }}
    return out;
}}
""", p)
            return {"python": python, "c": c, "javascript": javascript}
        if first:
            python_body = """    out, count = [], ""
    for ch in s:
        if ch.isdigit():
            count += ch
        else:
            out.append(ch * int(count or "1"))
            count = ""
    return "".join(out)"""
            c_body = """    int count = 0, length = 0;
    for (int i = 0; s[i]; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            count = count * 10 + (s[i] - '0');
        } else {
            if (count == 0) count = 1;
            for (int k = 0; k < count; k++) out[length++] = s[i];
            count = 0;
        }
    }"""
            js_body = """    let out = "", count = "";
    for (const ch of s) {
        if (ch >= "0" && ch <= "9") count += ch;
        else {
            out += ch.repeat(Number(count || "1"));
            count = "";
        }
    }
    return out;"""
        else:
            python_body = """    out, i = [], 0
    while i < len(s):
        j = i + 1
        while j < len(s) and s[j].isdigit():
            j += 1
        out.append(s[i] * int(s[i + 1:j] or "1"))
        i = j
    return "".join(out)"""
            c_body = """    int length = 0;
    for (int i = 0; s[i]; ) {
        int j = i + 1, count = 0;
        while (s[j] >= '0' && s[j] <= '9') count = count * 10 + (s[j++] - '0');
        if (count == 0) count = 1;
        for (int k = 0; k < count; k++) out[length++] = s[i];
        i = j;
    }"""
            js_body = """    let out = "";
    for (let i = 0; i < s.length; ) {
        let j = i + 1;
        while (j < s.length && s[j] >= "0" && s[j] <= "9") j++;
        out += s[i].repeat(Number(s.slice(i + 1, j) || "1"));
        i = j;
    }
    return out;"""
        python = python_program(f"""
def solve():
    s = next_word()
{python_body}
""", p)
        c = c_program(f"""
static char out[20000];

static void solve(void) {{
    const char *s = next_word();
{c_body}
    out[length] = '\\0';
    puts(out);
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const s = nextWord();
{js_body}
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- pattern search ---------------------------------------------------------------------------

class PatternSearch(StdioTemplate):
    name = "pattern_search"
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"measure": rng.choice(["count", "disjoint", "first", "last"]), "errors": rng.randint(0, 2)}

    def statement(self, p: dict[str, Any]) -> str:
        e = p["errors"]
        match = (f"a match is a position where the m letters of the text starting there differ from the pattern in at "
                 f"most {e} place{'s' if e > 1 else ''}" if e else
                 "a match is a position where the text contains the pattern exactly")
        asked = {
            "count": "the number of matches (matches may overlap)",
            "disjoint": "the largest number of matches whose blocks of m letters do not overlap each other",
            "first": "the position of the first match (positions count from 1), or -1 if there is none",
            "last": "the position of the last match (positions count from 1), or -1 if there is none",
        }[p["measure"]]
        return (f"Each test is one line with a text and a pattern (lowercase words; the pattern has m letters and is "
                f"not longer than the text); {match}. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        letters = "ab" if rng.random() < 0.5 else "abc"
        pattern = _word(rng, rng.randint(1, max(1, min(4, size // 2))), letters)
        text = _word(rng, rng.randint(len(pattern), max(len(pattern), size)), letters)
        for _ in range(rng.randint(0, 2)):  # plant occurrences
            at = rng.randint(0, len(text) - len(pattern))
            text = text[:at] + pattern + text[at + len(pattern):]
        return [text, pattern]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case[0]} {case[1]}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        text, pattern = case
        m = len(pattern)
        hits = [i for i in range(len(text) - m + 1)
                if sum(a != b for a, b in zip(text[i:i + m], pattern)) <= p["errors"]]
        if p["measure"] == "count":
            return str(len(hits))
        if p["measure"] == "disjoint":
            count, free = 0, 0
            for i in hits:
                if i >= free:
                    count, free = count + 1, i + m
            return str(count)
        if not hits:
            return "-1"
        return str((hits[0] if p["measure"] == "first" else hits[-1]) + 1)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        e, measure = p["errors"], p["measure"]
        py_result = {"count": "len(hits)",
                     "disjoint": "sum(1 for _ in iter_disjoint(hits, m))",
                     "first": "hits[0] + 1 if hits else -1",
                     "last": "hits[-1] + 1 if hits else -1"}[measure]
        disjoint_py = """

def iter_disjoint(hits, m):
    free = 0
    for i in hits:
        if i >= free:
            free = i + m
            yield i
""" if measure == "disjoint" else ""
        python = python_program(f"""{disjoint_py}
def solve():
    text, pattern = next_word(), next_word()
    m = len(pattern)
    hits = [i for i in range(len(text) - m + 1)
            if sum(1 for a, b in zip(text[i:i + m], pattern) if a != b) <= {e}]
    return {py_result}
""", p)
        c_update = {"count": "answer++;",
                    "disjoint": "if (i >= free) { answer++; free = i + m; }",
                    "first": "if (answer < 0) answer = i + 1;",
                    "last": "answer = i + 1;"}[measure]
        c_init = "0" if measure in ("count", "disjoint") else "-1"
        c = c_program(f"""
static char text[4096];

static void solve(void) {{
    strcpy(text, next_word());
    const char *pattern = next_word();
    int n = (int)strlen(text), m = (int)strlen(pattern), answer = {c_init}, free = 0;
    for (int i = 0; i + m <= n; i++) {{
        int mismatches = 0;
        for (int k = 0; k < m; k++) mismatches += text[i + k] != pattern[k];
        if (mismatches <= {e}) {{ {c_update} }}
    }}
    printf("%d\\n", answer);
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const text = nextWord(), pattern = nextWord();
    const m = pattern.length;
    let answer = {c_init}, free = 0;
    for (let i = 0; i + m <= text.length; i++) {{
        let mismatches = 0;
        for (let k = 0; k < m; k++) if (text[i + k] !== pattern[k]) mismatches++;
        if (mismatches <= {e}) {{ {c_update} }}
    }}
    return answer;
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- anagram groups ---------------------------------------------------------------------------

class AnagramGroups(StdioTemplate):
    name = "anagram_groups"
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"measure": rng.choice(["groups", "largest", "alone", "pairs"]), "sets": rng.random() < 0.4}

    def statement(self, p: dict[str, Any]) -> str:
        same = ("use the same letters, ignoring how often each appears (abba and ab are in one group)" if p["sets"]
                else "are anagrams: the same letters, each the same number of times (abb and bab are in one group)")
        asked = {
            "groups": "the number of groups",
            "largest": "the number of words in the largest group",
            "alone": "the number of words that are alone in their group",
            "pairs": "the number of pairs of words (at different positions) that are in the same group",
        }[p["measure"]]
        return (f"Each test is a line with n, then a line with n lowercase words (words may repeat). Two words are in "
                f"the same group when they {same}. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        roots = [_word(rng, rng.randint(1, 5), "abcde") for _ in range(max(1, size // 3))]
        words = []
        for _ in range(rng.randint(1, size)):
            letters = list(rng.choice(roots))
            rng.shuffle(letters)
            if p["sets"] and rng.random() < 0.3:
                letters.append(rng.choice(letters))
            words.append("".join(letters))
        return words

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{len(case)}\n{' '.join(case)}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        sizes = list(Counter("".join(sorted(set(w) if p["sets"] else w)) for w in case).values())
        return str({"groups": len(sizes), "largest": max(sizes), "alone": sum(s == 1 for s in sizes),
                    "pairs": sum(s * (s - 1) // 2 for s in sizes)}[p["measure"]])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure, sets = p["measure"], p["sets"]
        key_py = '"".join(sorted(set(w)))' if sets else '"".join(sorted(w))'
        py_result = {"groups": "len(sizes)", "largest": "max(sizes)", "alone": "sum(1 for s in sizes if s == 1)",
                     "pairs": "sum(s * (s - 1) // 2 for s in sizes)"}[measure]
        python = python_program(f"""
def solve():
    n = next_int()
    groups = {{}}
    for _ in range(n):
        w = next_word()
        key = {key_py}
        groups[key] = groups.get(key, 0) + 1
    sizes = list(groups.values())
    return {py_result}
""", p)
        c_fold = {"groups": "answer++;", "largest": "if (size > answer) answer = size;",
                  "alone": "answer += size == 1;", "pairs": "answer += size * (size - 1) / 2;"}[measure]
        dedupe = """        int kept = 0;
        for (int i = 0; i < length; i++)
            if (kept == 0 || keys[n_keys][kept - 1] != keys[n_keys][i]) keys[n_keys][kept++] = keys[n_keys][i];
        keys[n_keys][kept] = '\\0';
""" if sets else ""
        c = c_program(f"""
static char keys[2000][64];
static int n_keys;

static int by_char(const void *x, const void *y) {{
    return *(const char *)x - *(const char *)y;
}}

static int by_key(const void *x, const void *y) {{
    return strcmp((const char *)x, (const char *)y);
}}

static void solve(void) {{
    int n = (int)next_int();
    for (n_keys = 0; n_keys < n; n_keys++) {{
        strcpy(keys[n_keys], next_word());
        int length = (int)strlen(keys[n_keys]);
        qsort(keys[n_keys], length, 1, by_char);
{dedupe}    }}
    qsort(keys, n, sizeof(keys[0]), by_key);
    long long answer = 0;
    for (int i = 0; i < n; ) {{
        int j = i;
        while (j < n && strcmp(keys[j], keys[i]) == 0) j++;
        long long size = j - i;
        {c_fold}
        i = j;
    }}
    printf("%lld\\n", answer);
}}
""", p)
        key_js = "[...new Set(w)].sort().join(\"\")" if sets else "[...w].sort().join(\"\")"
        js_result = {"groups": "sizes.length", "largest": "Math.max(...sizes)",
                     "alone": "sizes.filter((s) => s === 1).length",
                     "pairs": "sizes.reduce((a, s) => a + (s * (s - 1)) / 2, 0)"}[measure]
        javascript = js_program(f"""
function solve() {{
    const n = nextInt();
    const groups = new Map();
    for (let i = 0; i < n; i++) {{
        const w = nextWord();
        const key = {key_js};
        groups.set(key, (groups.get(key) || 0) + 1);
    }}
    const sizes = [...groups.values()];
    return {js_result};
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- brackets ---------------------------------------------------------------------------------

class Brackets(StdioTemplate):
    name = "brackets"
    tier = 2
    KINDS = ("()", "[]", "{}", "<>")

    def params(self, rng: random.Random) -> dict[str, Any]:
        kinds = sorted(rng.sample(range(4), rng.randint(1, 4)))
        return {"kinds": "".join(self.KINDS[k] for k in kinds), "measure": rng.choice(["depth", "longest"])}

    def statement(self, p: dict[str, Any]) -> str:
        pairs = p["kinds"]
        kinds = " ".join(pairs[i:i + 2] for i in range(0, len(pairs), 2))
        asked = ("the nesting depth of the string if it is balanced (the largest number of brackets open at once; "
                 "0 for none), or -1 if it is not balanced" if p["measure"] == "depth" else
                 "the length of the longest contiguous block of the string that is balanced (0 if there is none)")
        return (f"Each test is one line with a non-empty string made of the brackets {kinds} (each pair is an opening "
                "and its closing bracket). A string is balanced when every bracket is closed by the matching "
                f"bracket of the same kind, in properly nested order. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        pairs = [p["kinds"][i:i + 2] for i in range(0, len(p["kinds"]), 2)]
        out, stack = [], []
        for _ in range(rng.randint(1, size)):
            if stack and rng.random() < 0.5:
                out.append(stack.pop())
            else:
                pair = rng.choice(pairs)
                out.append(pair[0])
                stack.append(pair[1])
        out += reversed(stack)
        if rng.random() < 0.5:  # break it somewhere
            at = rng.randrange(len(out))
            out[at] = rng.choice("".join(pairs))
        return "".join(out)

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        kinds = p["kinds"]
        opening = {kinds[i + 1]: kinds[i] for i in range(0, len(kinds), 2)}
        if p["measure"] == "depth":
            stack: list[str] = []
            depth = 0
            for ch in case:
                if ch in opening:
                    if not stack or stack[-1] != opening[ch]:
                        return "-1"
                    stack.pop()
                else:
                    stack.append(ch)
                    depth = max(depth, len(stack))
            return str(depth) if not stack else "-1"
        marks, best = [-1], 0  # indices of open brackets, or barriers that cut blocks
        for i, ch in enumerate(case):
            top = marks[-1]
            if ch in opening and top >= 0 and case[top] == opening[ch]:
                marks.pop()
                best = max(best, i - marks[-1])
            else:
                marks.append(i)
        return str(best)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        kinds = p["kinds"]
        openers, closers = kinds[0::2], kinds[1::2]
        if p["measure"] == "depth":
            py_body = f"""    stack, depth = [], 0
    for ch in s:
        at = {closers!r}.find(ch)
        if at >= 0:
            if not stack or stack[-1] != {openers!r}[at]:
                return -1
            stack.pop()
        else:
            stack.append(ch)
            depth = max(depth, len(stack))
    return -1 if stack else depth"""
            c_body = f"""    int top = 0, depth = 0, ok = 1;
    for (int i = 0; s[i] && ok; i++) {{
        const char *at = strchr("{closers}", s[i]);
        if (at) {{
            if (top == 0 || stack_[top - 1] != "{openers}"[at - "{closers}"]) ok = 0;
            else top--;
        }} else {{
            stack_[top++] = s[i];
            if (top > depth) depth = top;
        }}
    }}
    printf("%d\\n", ok && top == 0 ? depth : -1);"""
            js_body = f"""    const stack = [];
    let depth = 0;
    for (const ch of s) {{
        const at = "{closers}".indexOf(ch);
        if (at >= 0) {{
            if (stack.length === 0 || stack[stack.length - 1] !== "{openers}"[at]) return -1;
            stack.pop();
        }} else {{
            stack.push(ch);
            depth = Math.max(depth, stack.length);
        }}
    }}
    return stack.length === 0 ? depth : -1;"""
        else:
            py_body = f"""    marks, best = [-1], 0
    for i, ch in enumerate(s):
        at = {closers!r}.find(ch)
        top = marks[-1]
        if at >= 0 and top >= 0 and s[top] == {openers!r}[at]:
            marks.pop()
            best = max(best, i - marks[-1])
        else:
            marks.append(i)
    return best"""
            c_body = f"""    int top = 0, best = 0;
    marks[top++] = -1;
    for (int i = 0; s[i]; i++) {{
        const char *at = strchr("{closers}", s[i]);
        int last = marks[top - 1];
        if (at && last >= 0 && s[last] == "{openers}"[at - "{closers}"]) {{
            top--;
            if (i - marks[top - 1] > best) best = i - marks[top - 1];
        }} else {{
            marks[top++] = i;
        }}
    }}
    printf("%d\\n", best);"""
            js_body = f"""    const marks = [-1];
    let best = 0;
    for (let i = 0; i < s.length; i++) {{
        const at = "{closers}".indexOf(s[i]);
        const top = marks[marks.length - 1];
        if (at >= 0 && top >= 0 && s[top] === "{openers}"[at]) {{
            marks.pop();
            best = Math.max(best, i - marks[marks.length - 1]);
        }} else {{
            marks.push(i);
        }}
    }}
    return best;"""
        python = python_program(f"""
def solve():
    s = next_word()
{py_body}
""", p)
        c = c_program(f"""
static char stack_[4096];
static int marks[4096];

static void solve(void) {{
    const char *s = next_word();
{c_body}
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const s = nextWord();
{js_body}
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- palindromes ------------------------------------------------------------------------------

class Palindromes(StdioTemplate):
    name = "palindromes"
    tier = 2
    PARITY = {"any": "", "odd": " of odd length", "even": " of even length"}

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["longest", "count", "distinct", "subsequence"])
        return {"measure": measure, "parity": "any" if measure == "subsequence" else rng.choice(list(self.PARITY))}

    def statement(self, p: dict[str, Any]) -> str:
        parity = self.PARITY[p["parity"]]
        asked = {
            "longest": f"the length of the longest block (contiguous substring) that is a palindrome{parity} (0 if "
                       "there is none)",
            "count": f"how many blocks (contiguous substrings, counted by their start and end positions) are "
                     f"palindromes{parity}",
            "distinct": f"how many different strings{parity} appear as a palindromic block (contiguous substring)",
            "subsequence": "the length of the longest palindromic subsequence (letters kept in order, not "
                           "necessarily adjacent)",
        }[p["measure"]]
        return (f"Each test is one line with a word of lowercase letters. A palindrome reads the same forwards and "
                f"backwards. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return _word(rng, rng.randint(1, size), "ab" if rng.random() < 0.5 else "abc")

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        s, n = case, len(case)
        if p["measure"] == "subsequence":
            best = [[0] * n for _ in range(n)]
            for i in range(n - 1, -1, -1):
                best[i][i] = 1
                for j in range(i + 1, n):
                    best[i][j] = best[i + 1][j - 1] + 2 if s[i] == s[j] else max(best[i + 1][j], best[i][j - 1])
            return str(best[0][n - 1])
        blocks = [s[i:j] for i in range(n) for j in range(i + 1, n + 1)
                  if s[i:j] == s[i:j][::-1] and (p["parity"] == "any" or (j - i) % 2 == (p["parity"] == "odd"))]
        if p["measure"] == "longest":
            return str(max((len(b) for b in blocks), default=0))
        return str(len(blocks) if p["measure"] == "count" else len(set(blocks)))

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure, parity = p["measure"], p["parity"]
        if measure == "subsequence":
            python = python_program("""
def solve():
    s = next_word()
    n = len(s)
    best = [[0] * n for _ in range(n)]
    for i in range(n - 1, -1, -1):
        best[i][i] = 1
        for j in range(i + 1, n):
            if s[i] == s[j]:
                best[i][j] = best[i + 1][j - 1] + 2
            else:
                best[i][j] = max(best[i + 1][j], best[i][j - 1])
    return best[0][n - 1]
""", p)
            c = c_program("""
static int best[1000][1000];

static void solve(void) {
    const char *s = next_word();
    int n = (int)strlen(s);
    for (int i = n - 1; i >= 0; i--) {
        best[i][i] = 1;
        for (int j = i + 1; j < n; j++) {
            if (s[i] == s[j]) best[i][j] = (j - i > 1 ? best[i + 1][j - 1] : 0) + 2;
            else best[i][j] = best[i + 1][j] > best[i][j - 1] ? best[i + 1][j] : best[i][j - 1];
        }
    }
    printf("%d\\n", best[0][n - 1]);
}
""", p)
            javascript = js_program("""
function solve() {
    const s = nextWord();
    const n = s.length;
    const best = Array.from({ length: n }, () => new Array(n).fill(0));
    for (let i = n - 1; i >= 0; i--) {
        best[i][i] = 1;
        for (let j = i + 1; j < n; j++)
            best[i][j] = s[i] === s[j]
                ? (j - i > 1 ? best[i + 1][j - 1] : 0) + 2
                : Math.max(best[i + 1][j], best[i][j - 1]);
    }
    return best[0][n - 1];
}
""", p)
            return {"python": python, "c": c, "javascript": javascript}
        keep_py = {"any": "True", "odd": "(j - i) % 2 == 1", "even": "(j - i) % 2 == 0"}[parity]
        keep_c = {"any": "1", "odd": "(j - i) % 2 == 1", "even": "(j - i) % 2 == 0"}[parity]
        py_result = {"longest": "max((len(b) for b in blocks), default=0)", "count": "len(blocks)",
                     "distinct": "len(set(blocks))"}[measure]
        python = python_program(f"""
def solve():
    s = next_word()
    n = len(s)
    blocks = [s[i:j] for i in range(n) for j in range(i + 1, n + 1) if s[i:j] == s[i:j][::-1] and {keep_py}]
    return {py_result}
""", p)
        c_take = {
            "longest": "if (j - i > answer) answer = j - i;",
            "count": "answer++;",
            "distinct": """int seen = 0;
                for (int k = 0; k < i && !seen; k++) seen = strncmp(s + k, s + i, j - i) == 0;
                if (!seen) answer++;""",
        }[measure]
        c = c_program(f"""
static int is_palindrome(const char *s, int i, int j) {{
    for (j--; i < j; i++, j--)
        if (s[i] != s[j]) return 0;
    return 1;
}}

static void solve(void) {{
    const char *s = next_word();
    int n = (int)strlen(s);
    long long answer = 0;
    for (int i = 0; i < n; i++) {{
        for (int j = i + 1; j <= n; j++) {{
            if ({keep_c} && is_palindrome(s, i, j)) {{
                {c_take}
            }}
        }}
    }}
    printf("%lld\\n", answer);
}}
""", p)
        js_result = {"longest": "blocks.reduce((a, b) => Math.max(a, b.length), 0)", "count": "blocks.length",
                     "distinct": "new Set(blocks).size"}[measure]
        javascript = js_program(f"""
function solve() {{
    const s = nextWord();
    const n = s.length;
    const blocks = [];
    for (let i = 0; i < n; i++)
        for (let j = i + 1; j <= n; j++) {{
            const block = s.slice(i, j);
            if ({keep_c} && block === [...block].reverse().join("")) blocks.push(block);
        }}
    return {js_result};
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- rotations --------------------------------------------------------------------------------

class Rotations(StdioTemplate):
    name = "rotations"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["smallest", "largest", "smallest_at", "largest_at", "distinct"])
        return {"measure": measure, "flips": measure in ("smallest", "largest", "distinct") and rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        pool = ("the rotations of the word and the rotations of the word written backwards" if p["flips"]
                else "the rotations of the word")
        asked = {
            "smallest": f"the alphabetically smallest string among {pool}",
            "largest": f"the alphabetically largest string among {pool}",
            "smallest_at": "the smallest k such that rotating by k gives the alphabetically smallest rotation",
            "largest_at": "the smallest k such that rotating by k gives the alphabetically largest rotation",
            "distinct": f"how many different strings there are among {pool}",
        }[p["measure"]]
        return (f"Each test is one line with a word of lowercase letters. Rotating a word of length n by k (0 <= k < "
                f"n) moves its first k letters to its end (abcd rotated by 1 is bcda). For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        unit = _word(rng, rng.randint(1, max(1, size // 2)), "ab" if rng.random() < 0.5 else "abc")
        if rng.random() < 0.3:
            return (unit * rng.randint(1, 3))[:size]
        return unit + _word(rng, rng.randint(0, size // 2), "abc")

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        s = case
        pool = [s[k:] + s[:k] for k in range(len(s))]
        if p["flips"]:
            r = s[::-1]
            pool += [r[k:] + r[:k] for k in range(len(r))]
        measure = p["measure"]
        if measure == "smallest":
            return min(pool)
        if measure == "largest":
            return max(pool)
        if measure == "distinct":
            return str(len(set(pool)))
        target = min(pool) if measure == "smallest_at" else max(pool)
        return str(pool.index(target))

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure, flips = p["measure"], p["flips"]
        flips_py = "\n    r = s[::-1]\n    pool += [r[k:] + r[:k] for k in range(len(r))]" if flips else ""
        py_result = {"smallest": "min(pool)", "largest": "max(pool)", "distinct": "len(set(pool))",
                     "smallest_at": "pool.index(min(pool))", "largest_at": "pool.index(max(pool))"}[measure]
        python = python_program(f"""
def solve():
    s = next_word()
    pool = [s[k:] + s[:k] for k in range(len(s))]{flips_py}
    return {py_result}
""", p)
        count = "2 * n" if flips else "n"
        c_pick = {"smallest": "strcmp(pool[k], pool[best]) < 0", "largest": "strcmp(pool[k], pool[best]) > 0",
                  "smallest_at": "strcmp(pool[k], pool[best]) < 0", "largest_at": "strcmp(pool[k], pool[best]) > 0",
                  "distinct": "0"}[measure]
        c_out = {"smallest": "puts(pool[best]);", "largest": "puts(pool[best]);",
                 "smallest_at": "printf(\"%d\\n\", best);", "largest_at": "printf(\"%d\\n\", best);",
                 "distinct": """int distinct = 0;
    for (int k = 0; k < total; k++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++) seen = strcmp(pool[j], pool[k]) == 0;
        distinct += !seen;
    }
    printf("%d\\n", distinct);"""}[measure]
        c = c_program(f"""
static char pool[2000][1001];

static void solve(void) {{
    const char *s = next_word();
    int n = (int)strlen(s), total = {count}, best = 0;
    for (int k = 0; k < total; k++) {{
        for (int i = 0; i < n; i++) {{
            int from = k < n ? (k + i) % n : (k - n + i) % n;
            pool[k][i] = k < n ? s[from] : s[n - 1 - from];
        }}
        pool[k][n] = '\\0';
    }}
    for (int k = 1; k < total; k++)
        if ({c_pick}) best = k;
    {c_out}
}}
""", p)
        flips_js = ('\n    const r = [...s].reverse().join("");'
                    "\n    for (let k = 0; k < r.length; k++) pool.push(r.slice(k) + r.slice(0, k));") if flips else ""
        js_result = {"smallest": "[...pool].sort()[0]", "largest": "[...pool].sort()[pool.length - 1]",
                     "distinct": "new Set(pool).size", "smallest_at": "pool.indexOf([...pool].sort()[0])",
                     "largest_at": "pool.indexOf([...pool].sort()[pool.length - 1])"}[measure]
        javascript = js_program(f"""
function solve() {{
    const s = nextWord();
    const pool = [];
    for (let k = 0; k < s.length; k++) pool.push(s.slice(k) + s.slice(0, k));{flips_js}
    return {js_result};
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


TEMPLATES = {t.name: t for t in (RunLength(), PatternSearch(), AnagramGroups(), Brackets(), Palindromes(), Rotations())}


@register
class StringPrograms(StdioPolyglotTask):
    id = "code/string_programs"
    description = ("Write a stdin/stdout program (Python, C, C++ or JavaScript) for a generated string-algorithm "
                   "problem.")
    tags = ("code", "programming", "stdio", "strings", "multi-language")
    templates = TEMPLATES

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        max_size: int
        tests: int

    def config(self, level: int) -> Config:
        easy = ("run_length", "pattern_search", "anagram_groups", "brackets")
        return [
            self.Config(easy, max_size=6, tests=4),
            self.Config((*easy, "palindromes"), max_size=10, tests=5),
            self.Config(("pattern_search", "anagram_groups", "brackets", "palindromes", "rotations"), max_size=20,
                        tests=6),
            self.Config(("pattern_search", "brackets", "palindromes", "rotations"), max_size=35, tests=7),
            self.Config(("brackets", "palindromes", "rotations"), max_size=60, tests=8),
        ][level]
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            sizes = [rng.randint(max(2, config.max_size // 2), config.max_size) for _ in range(config.tests)]
            sizes[0] = min(sizes[0], 4)  # a small test for the example
            limits = (f"Limits: T <= {config.tests}; a word or list has at most {12 * config.max_size} letters or "
                      "elements.")
            return stdio_problem(rng, template, sizes, limits_text=limits, min_distinct=2)

        return retry(draw, attempts=50, what="a string problem with varied answers")
