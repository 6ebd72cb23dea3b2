"""Dynamic programming as stdin/stdout programs in Python, C, C++ or JavaScript.

Templates (parameters vary the rule, the costs and the modulus):

- **run_limited** (counting): strings of length n over an A-letter alphabet with no K equal letters
  in a row, modulo M;
- **spaced_pick** (selection): the largest sum of chosen array elements when chosen positions are
  at least G apart (and, in some variants, at most C are chosen);
- **decodings** (counting): ways to split a digit string into numbers from 1 to Z without leading
  zeros, modulo M;
- **alignment** (two sequences): edit distance with generated insert/delete/replace costs, longest
  common subsequence, shortest common supersequence, longest common substring;
- **palindrome_cuts** (partitions): the fewest cuts into palindromes (optionally of bounded length),
  or the number of partitions into palindromes modulo M;
- **pile_merging** (interval DP): the cheapest or dearest way to merge a row of piles into one when
  merging two adjacent piles costs their total plus a fee.

Multi-test (T cases in one input, one answer line each). Levels add templates and grow the
inputs. Expected answers come from trusted Python references in this module.
"""

from __future__ import annotations

import random
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

PRIMES = (10007, 65537, 999983, 1000003, 998244353, 1000000007)


def _word(rng: random.Random, length: int, letters: str) -> str:
    return "".join(rng.choice(letters) for _ in range(length))


# --- run-limited strings ----------------------------------------------------------------------

class RunLimited(StdioTemplate):
    name = "run_limited"
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"letters": rng.randint(2, 4), "k": rng.randint(2, 4), "mod": rng.choice(PRIMES)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Each test is one line with an integer n. For each test print the number of strings of length n "
                f"over an alphabet of {p['letters']} letters in which no letter appears {p['k']} or more times in a "
                f"row, modulo {p['mod']}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return rng.randint(1, 3 * size)

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        a, k, mod = p["letters"], p["k"], p["mod"]
        ending = [0] * k  # ending[j]: strings whose last run has length j
        ending[1] = a
        for _ in range(case - 1):
            total = sum(ending) % mod
            ending = [0, total * (a - 1) % mod, *ending[1:k - 1]]
        return str(sum(ending) % mod)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        a, k, mod = p["letters"], p["k"], p["mod"]
        python = python_program(f"""
def solve():
    n = next_int()
    run = [0] * {k}
    run[1] = {a}
    for _ in range(n - 1):
        total = sum(run) % {mod}
        for j in range({k} - 1, 1, -1):
            run[j] = run[j - 1]
        run[1] = total * {a - 1} % {mod}
    return sum(run) % {mod}
""", p)
        c = c_program(f"""
static void solve(void) {{
    long long n = next_int(), run[{k}] = {{0}}, total;
    run[1] = {a};
    for (long long i = 1; i < n; i++) {{
        total = 0;
        for (int j = 1; j < {k}; j++) total = (total + run[j]) % {mod};
        for (int j = {k} - 1; j > 1; j--) run[j] = run[j - 1];
        run[1] = total * {a - 1} % {mod};
    }}
    total = 0;
    for (int j = 1; j < {k}; j++) total = (total + run[j]) % {mod};
    printf("%lld\\n", total);
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const n = nextInt();
    const run = new Array({k}).fill(0);
    run[1] = {a};
    const sum = () => run.reduce((x, y) => (x + y) % {mod}, 0);
    for (let i = 1; i < n; i++) {{
        const total = sum();
        for (let j = {k} - 1; j > 1; j--) run[j] = run[j - 1];
        run[1] = (total * {a - 1}) % {mod};
    }}
    return sum();
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- spaced picks -----------------------------------------------------------------------------

class SpacedPick(StdioTemplate):
    name = "spaced_pick"
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"gap": rng.randint(2, 4), "cap": rng.choice([0, 0, 2, 3, 4, 5])}

    def statement(self, p: dict[str, Any]) -> str:
        cap = f", choosing at most {p['cap']} elements" if p["cap"] else ""
        return (f"Each test is a line with n and a line with n integers a1 ... an. Choose some of the positions "
                f"(possibly none) so that any two chosen positions i < j satisfy j - i >= {p['gap']}{cap}. For each "
                "test print the largest possible sum of the chosen elements (0 when nothing is chosen).")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return [rng.randint(-20, 30) for _ in range(rng.randint(1, size))]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{len(case)}\n{' '.join(map(str, case))}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        n, gap = len(case), p["gap"]
        cap = p["cap"] or n
        best = [[0] * (cap + 1) for _ in range(n + 1)]  # best[i][c]: first i elements, at most c chosen
        for i in range(1, n + 1):
            for c in range(1, cap + 1):
                take = case[i - 1] + best[max(0, i - gap)][c - 1]
                best[i][c] = max(best[i - 1][c], take)
        return str(best[n][cap])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        gap, cap = p["gap"], p["cap"]
        cap_py, cap_c = (str(cap), str(cap)) if cap else ("n", "n")
        python = python_program(f"""
def solve():
    n = next_int()
    a = [next_int() for _ in range(n)]
    cap = {cap_py}
    best = [[0] * (cap + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for c in range(1, cap + 1):
            best[i][c] = max(best[i - 1][c], a[i - 1] + best[max(0, i - {gap})][c - 1])
    return best[n][cap]
""", p)
        c = c_program(f"""
static long long a[1000], best[1001][1001];

static void solve(void) {{
    int n = (int)next_int();
    for (int i = 0; i < n; i++) a[i] = next_int();
    int cap = {cap_c};
    for (int c = 0; c <= cap; c++) best[0][c] = 0;
    for (int i = 1; i <= n; i++) {{
        best[i][0] = 0;
        for (int c = 1; c <= cap; c++) {{
            int back = i - {gap} < 0 ? 0 : i - {gap};
            long long take = a[i - 1] + best[back][c - 1];
            best[i][c] = best[i - 1][c] > take ? best[i - 1][c] : take;
        }}
    }}
    printf("%lld\\n", best[n][cap]);
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const n = nextInt();
    const a = [];
    for (let i = 0; i < n; i++) a.push(nextInt());
    const cap = {cap_c};
    const best = Array.from({{ length: n + 1 }}, () => new Array(cap + 1).fill(0));
    for (let i = 1; i <= n; i++)
        for (let c = 1; c <= cap; c++)
            best[i][c] = Math.max(best[i - 1][c], a[i - 1] + best[Math.max(0, i - {gap})][c - 1]);
    return best[n][cap];
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- decodings --------------------------------------------------------------------------------

class Decodings(StdioTemplate):
    name = "decodings"
    tier = 2
    LARGEST = (9, 26, 50, 99, 150, 255, 999)

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"largest": rng.choice(self.LARGEST), "mod": rng.choice(PRIMES)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Each test is one line with a string of digits. For each test print the number of ways to split "
                f"it into consecutive pieces so that every piece is a number from 1 to {p['largest']} written "
                f"without leading zeros (so no piece starts with 0), modulo {p['mod']} (0 when there is no way).")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return "".join(rng.choice("0123456789" if rng.random() < 0.15 else "123456789")
                       for _ in range(rng.randint(1, size)))

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        ways = [1] + [0] * len(case)
        for i in range(1, len(case) + 1):
            for length in (1, 2, 3):
                piece = case[max(0, i - length):i]
                if len(piece) == length and piece[0] != "0" and int(piece) <= p["largest"]:
                    ways[i] = (ways[i] + ways[i - length]) % p["mod"]
        return str(ways[-1])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        largest, mod = p["largest"], p["mod"]
        python = python_program(f"""
def solve():
    s = next_word()
    ways = [1] + [0] * len(s)
    for i in range(1, len(s) + 1):
        for length in (1, 2, 3):
            if length <= i and s[i - length] != "0" and int(s[i - length:i]) <= {largest}:
                ways[i] = (ways[i] + ways[i - length]) % {mod}
    return ways[len(s)]
""", p)
        c = c_program(f"""
static long long ways[5000];

static void solve(void) {{
    const char *s = next_word();
    int n = (int)strlen(s);
    ways[0] = 1;
    for (int i = 1; i <= n; i++) {{
        ways[i] = 0;
        for (int length = 1; length <= 3 && length <= i; length++) {{
            if (s[i - length] == '0') continue;
            int value = 0;
            for (int j = i - length; j < i; j++) value = value * 10 + (s[j] - '0');
            if (value <= {largest}) ways[i] = (ways[i] + ways[i - length]) % {mod};
        }}
    }}
    printf("%lld\\n", ways[n]);
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const s = nextWord();
    const ways = new Array(s.length + 1).fill(0);
    ways[0] = 1;
    for (let i = 1; i <= s.length; i++)
        for (let length = 1; length <= 3 && length <= i; length++)
            if (s[i - length] !== "0" && Number(s.slice(i - length, i)) <= {largest})
                ways[i] = (ways[i] + ways[i - length]) % {mod};
    return ways[s.length];
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- alignment --------------------------------------------------------------------------------

class Alignment(StdioTemplate):
    name = "alignment"
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["edit", "edit", "edit", "lcs", "scs", "substring"])
        costs = [rng.randint(1, 3) for _ in range(3)] if measure == "edit" else [0, 0, 0]
        return {"measure": measure, "costs": costs, "letters": rng.randint(2, 4)}

    def statement(self, p: dict[str, Any]) -> str:
        insert, delete, replace = p["costs"]
        asked = {
            "edit": f"the cheapest cost of turning the first word into the second, where inserting a letter costs "
                    f"{insert}, deleting a letter costs {delete} and replacing a letter by another costs {replace}",
            "lcs": "the length of the longest common subsequence of the two words",
            "scs": "the length of the shortest string that has both words as subsequences",
            "substring": "the length of the longest string that appears as a contiguous block in both words (0 "
                         "if they share no letter)",
        }[p["measure"]]
        return f"Each test is one line with two words of lowercase letters. For each test print {asked}."

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        letters = "abcd"[: p["letters"]]
        return [_word(rng, rng.randint(1, size), letters), _word(rng, rng.randint(1, size), letters)]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case[0]} {case[1]}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        a, b = case
        insert, delete, replace = p["costs"]
        if p["measure"] == "substring":
            best, run = 0, [0] * (len(b) + 1)
            for i in range(1, len(a) + 1):
                run = [0] + [run[j - 1] + 1 if a[i - 1] == b[j - 1] else 0 for j in range(1, len(b) + 1)]
                best = max(best, max(run))
            return str(best)
        if p["measure"] == "edit":
            row = [j * insert for j in range(len(b) + 1)]
            for i in range(1, len(a) + 1):
                new = [i * delete] + [0] * len(b)
                for j in range(1, len(b) + 1):
                    same = row[j - 1] + (0 if a[i - 1] == b[j - 1] else replace)
                    new[j] = min(same, row[j] + delete, new[j - 1] + insert)
                row = new
            return str(row[-1])
        row = [0] * (len(b) + 1)
        for i in range(1, len(a) + 1):
            new = [0] * (len(b) + 1)
            for j in range(1, len(b) + 1):
                new[j] = row[j - 1] + 1 if a[i - 1] == b[j - 1] else max(row[j], new[j - 1])
            row = new
        return str(row[-1] if p["measure"] == "lcs" else len(a) + len(b) - row[-1])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        insert, delete, replace = p["costs"]
        measure = p["measure"]
        if measure == "edit":
            py_core = f"""    row = [j * {insert} for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        new = [i * {delete}] + [0] * len(b)
        for j in range(1, len(b) + 1):
            same = row[j - 1] + (0 if a[i - 1] == b[j - 1] else {replace})
            new[j] = min(same, row[j] + {delete}, new[j - 1] + {insert})
        row = new
    return row[len(b)]"""
            c_init, c_first = f"row[j] = j * {insert};", f"next[0] = i * {delete};"
            c_cell = f"""long long same = row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : {replace});
            long long best = same;
            if (row[j] + {delete} < best) best = row[j] + {delete};
            if (next[j - 1] + {insert} < best) best = next[j - 1] + {insert};
            next[j] = best;"""
            c_answer = "row[lb]"
            js_init, js_first = f"j * {insert}", f"i * {delete}"
            js_cell = (f"next[j] = Math.min(row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : {replace}), "
                       f"row[j] + {delete}, next[j - 1] + {insert});")
            js_answer = "row[b.length]"
        elif measure == "substring":
            py_core = """    best, row = 0, [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        new = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                new[j] = row[j - 1] + 1
                best = max(best, new[j])
        row = new
    return best"""
            c_init, c_first = "row[j] = 0;", "next[0] = 0;"
            c_cell = """next[j] = a[i - 1] == b[j - 1] ? row[j - 1] + 1 : 0;
            if (next[j] > answer) answer = next[j];"""
            c_answer = "answer"
            js_init, js_first = "0", "0"
            js_cell = """next[j] = a[i - 1] === b[j - 1] ? row[j - 1] + 1 : 0;
            answer = Math.max(answer, next[j]);"""
            js_answer = "answer"
        else:
            final_py = "row[len(b)]" if measure == "lcs" else "len(a) + len(b) - row[len(b)]"
            py_core = f"""    row = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        new = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            new[j] = row[j - 1] + 1 if a[i - 1] == b[j - 1] else max(row[j], new[j - 1])
        row = new
    return {final_py}"""
            c_init, c_first = "row[j] = 0;", "next[0] = 0;"
            c_cell = """if (a[i - 1] == b[j - 1]) next[j] = row[j - 1] + 1;
            else next[j] = row[j] > next[j - 1] ? row[j] : next[j - 1];"""
            c_answer = "row[lb]" if measure == "lcs" else "la + lb - row[lb]"
            js_init, js_first = "0", "0"
            js_cell = "next[j] = a[i - 1] === b[j - 1] ? row[j - 1] + 1 : Math.max(row[j], next[j - 1]);"
            js_answer = "row[b.length]" if measure == "lcs" else "a.length + b.length - row[b.length]"
        python = python_program(f"""
def solve():
    a, b = next_word(), next_word()
{py_core}
""", p)
        c = c_program(f"""
static char a[4096], b[4096];
static long long row[4096], next[4096];

static void solve(void) {{
    strcpy(a, next_word());
    strcpy(b, next_word());
    int la = (int)strlen(a), lb = (int)strlen(b);
    long long answer = 0;
    for (int j = 0; j <= lb; j++) {c_init}
    for (int i = 1; i <= la; i++) {{
        {c_first}
        for (int j = 1; j <= lb; j++) {{
            {c_cell}
        }}
        for (int j = 0; j <= lb; j++) row[j] = next[j];
    }}
    printf("%lld\\n", (long long)({c_answer}));
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const a = nextWord(), b = nextWord();
    let answer = 0;
    let row = Array.from({{ length: b.length + 1 }}, (_, j) => {js_init});
    for (let i = 1; i <= a.length; i++) {{
        const next = new Array(b.length + 1).fill(0);
        next[0] = {js_first};
        for (let j = 1; j <= b.length; j++) {{
            {js_cell}
        }}
        row = next;
    }}
    return {js_answer};
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- palindrome partitions --------------------------------------------------------------------

class PalindromeCuts(StdioTemplate):
    name = "palindrome_cuts"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["cuts", "cuts", "count"])
        return {"measure": measure, "longest": rng.choice([0, 2, 3, 4, 5, 6]) if measure == "cuts" else 0,
                "mod": rng.choice(PRIMES) if measure == "count" else 0, "letters": rng.randint(2, 3)}

    def statement(self, p: dict[str, Any]) -> str:
        bound = f" of length at most {p['longest']}" if p["longest"] else ""
        asked = (f"the smallest number of cuts that split the word into pieces that are all palindromes{bound}"
                 if p["measure"] == "cuts" else
                 f"the number of ways to split the word into pieces that are all palindromes, modulo {p['mod']}")
        return (f"Each test is one line with a word of lowercase letters. A palindrome reads the same forwards and "
                f"backwards; a cut splits the word between two letters. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return _word(rng, rng.randint(1, size), "abc"[: p["letters"]])

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        s, n = case, len(case)
        longest = p["longest"] or n
        best = [0] + [n * 10] * n  # best[i]: fewest pieces for s[:i] (or ways, for counting)
        ways = [1] + [0] * n
        for i in range(1, n + 1):
            for j in range(i):
                piece = s[j:i]
                if piece == piece[::-1]:
                    ways[i] = (ways[i] + ways[j]) % (p["mod"] or 1)
                    if i - j <= longest:
                        best[i] = min(best[i], best[j] + 1)
        return str(ways[n] if p["measure"] == "count" else best[n] - 1)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        longest, mod, measure = p["longest"], p["mod"], p["measure"]
        bound_py = f"i - j <= {longest} and " if longest else ""
        bound_c = f"i - j <= {longest} && " if longest else ""
        if measure == "count":
            py_body = f"""    ways = [1] + [0] * n
    for i in range(1, n + 1):
        for j in range(i):
            if pal[j][i - 1]:
                ways[i] = (ways[i] + ways[j]) % {mod}
    return ways[n]"""
            c_body = f"""    value[0] = 1;
    for (int i = 1; i <= n; i++) {{
        value[i] = 0;
        for (int j = 0; j < i; j++)
            if (pal[j][i - 1]) value[i] = (value[i] + value[j]) % {mod};
    }}
    printf("%lld\\n", value[n]);"""
            js_body = f"""    const ways = new Array(n + 1).fill(0);
    ways[0] = 1;
    for (let i = 1; i <= n; i++)
        for (let j = 0; j < i; j++)
            if (pal[j][i - 1]) ways[i] = (ways[i] + ways[j]) % {mod};
    return ways[n];"""
        else:
            py_body = f"""    pieces = [0] + [10 * n] * n
    for i in range(1, n + 1):
        for j in range(i):
            if {bound_py}pal[j][i - 1]:
                pieces[i] = min(pieces[i], pieces[j] + 1)
    return pieces[n] - 1"""
            c_body = f"""    value[0] = 0;
    for (int i = 1; i <= n; i++) {{
        value[i] = 10LL * n;
        for (int j = 0; j < i; j++)
            if ({bound_c}pal[j][i - 1] && value[j] + 1 < value[i]) value[i] = value[j] + 1;
    }}
    printf("%lld\\n", value[n] - 1);"""
            js_body = f"""    const pieces = new Array(n + 1).fill(10 * n);
    pieces[0] = 0;
    for (let i = 1; i <= n; i++)
        for (let j = 0; j < i; j++)
            if ({bound_c}pal[j][i - 1]) pieces[i] = Math.min(pieces[i], pieces[j] + 1);
    return pieces[n] - 1;"""
        python = python_program(f"""
def solve():
    s = next_word()
    n = len(s)
    pal = [[False] * n for _ in range(n)]
    for i in range(n - 1, -1, -1):
        for j in range(i, n):
            pal[i][j] = s[i] == s[j] and (j - i < 2 or pal[i + 1][j - 1])
{py_body}
""", p)
        c = c_program(f"""
static char pal[1000][1000];
static long long value[1001];

static void solve(void) {{
    const char *s = next_word();
    int n = (int)strlen(s);
    for (int i = n - 1; i >= 0; i--)
        for (int j = i; j < n; j++)
            pal[i][j] = s[i] == s[j] && (j - i < 2 || pal[i + 1][j - 1]);
{c_body}
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const s = nextWord();
    const n = s.length;
    const pal = Array.from({{ length: n }}, () => new Array(n).fill(false));
    for (let i = n - 1; i >= 0; i--)
        for (let j = i; j < n; j++)
            pal[i][j] = s[i] === s[j] && (j - i < 2 || pal[i + 1][j - 1]);
{js_body}
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


# --- pile merging -----------------------------------------------------------------------------

class PileMerging(StdioTemplate):
    name = "pile_merging"
    tier = 4

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"goal": rng.choice(["min", "max"]), "fee": rng.randint(0, 5)}

    def statement(self, p: dict[str, Any]) -> str:
        fee = f" plus a fee of {p['fee']}" if p["fee"] else ""
        word = "smallest" if p["goal"] == "min" else "largest"
        return (f"Each test is a line with n and a line with n positive integers: the sizes of n piles in a row. "
                f"Repeatedly merge two adjacent piles into one pile (its size is their total); a merge costs the "
                f"new pile's size{fee}. For each test print the {word} possible total cost of merging all piles "
                f"into one (0 for a single pile).")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return [rng.randint(1, 20) for _ in range(rng.randint(1, size))]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{len(case)}\n{' '.join(map(str, case))}\n"

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        n = len(case)
        prefix = [0]
        for x in case:
            prefix.append(prefix[-1] + x)
        pick = min if p["goal"] == "min" else max
        cost = [[0] * n for _ in range(n)]
        for length in range(2, n + 1):
            for i in range(n - length + 1):
                j = i + length - 1
                merges = pick(cost[i][k] + cost[k + 1][j] for k in range(i, j))
                cost[i][j] = merges + prefix[j + 1] - prefix[i] + p["fee"]
        return str(cost[0][n - 1])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        fee, goal = p["fee"], p["goal"]
        better = "<" if goal == "min" else ">"
        python = python_program(f"""
def solve():
    n = next_int()
    piles = [next_int() for _ in range(n)]
    prefix = [0]
    for x in piles:
        prefix.append(prefix[-1] + x)
    cost = [[0] * n for _ in range(n)]
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            cost[i][j] = {goal}(cost[i][k] + cost[k + 1][j] for k in range(i, j)) + prefix[j + 1] - prefix[i] + {fee}
    return cost[0][n - 1]
""", p)
        c = c_program(f"""
static long long prefix[1001], cost[1000][1000];

static void solve(void) {{
    int n = (int)next_int();
    prefix[0] = 0;
    for (int i = 0; i < n; i++) prefix[i + 1] = prefix[i] + next_int();
    for (int i = 0; i < n; i++) cost[i][i] = 0;
    for (int length = 2; length <= n; length++) {{
        for (int i = 0; i + length - 1 < n; i++) {{
            int j = i + length - 1;
            long long best = cost[i][i] + cost[i + 1][j];
            for (int k = i + 1; k < j; k++)
                if (cost[i][k] + cost[k + 1][j] {better} best) best = cost[i][k] + cost[k + 1][j];
            cost[i][j] = best + prefix[j + 1] - prefix[i] + {fee};
        }}
    }}
    printf("%lld\\n", cost[0][n - 1]);
}}
""", p)
        javascript = js_program(f"""
function solve() {{
    const n = nextInt();
    const prefix = [0];
    for (let i = 0; i < n; i++) prefix.push(prefix[i] + nextInt());
    const cost = Array.from({{ length: n }}, () => new Array(n).fill(0));
    for (let length = 2; length <= n; length++) {{
        for (let i = 0; i + length - 1 < n; i++) {{
            const j = i + length - 1;
            let best = cost[i][i] + cost[i + 1][j];
            for (let k = i + 1; k < j; k++)
                if (cost[i][k] + cost[k + 1][j] {better} best) best = cost[i][k] + cost[k + 1][j];
            cost[i][j] = best + prefix[j + 1] - prefix[i] + {fee};
        }}
    }}
    return cost[0][n - 1];
}}
""", p)
        return {"python": python, "c": c, "javascript": javascript}


TEMPLATES = {t.name: t for t in (RunLimited(), SpacedPick(), Decodings(), Alignment(), PalindromeCuts(), PileMerging())}


@register
class DpPrograms(StdioPolyglotTask):
    id = "code/dp_programs"
    description = ("Write a stdin/stdout program (Python, C, C++ or JavaScript) for a generated dynamic-programming "
                   "problem.")
    tags = ("code", "programming", "stdio", "dynamic-programming", "multi-language")
    templates = TEMPLATES

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        max_size: int
        tests: int

    def config(self, level: int) -> Config:
        easy = ("run_limited", "spaced_pick", "decodings")
        return [
            self.Config(easy, max_size=6, tests=4),
            self.Config((*easy, "alignment"), max_size=10, tests=5),
            self.Config(("spaced_pick", "decodings", "alignment", "palindrome_cuts"), max_size=20, tests=6),
            self.Config(("alignment", "palindrome_cuts", "pile_merging", "decodings"), max_size=35, tests=7),
            self.Config(("alignment", "palindrome_cuts", "pile_merging"), max_size=60, tests=8),
        ][level]
    # Capped at level 9's size: generation takes up to 2-3 s of CPU from size 410 (level 11) on, and at size 1860
    # the reference program overflows the sandbox's stack (difficulty saturates).
    growth = Growth(steps={"max_size": 50}, limits={"max_size": 310})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            sizes = [rng.randint(max(2, config.max_size // 2), config.max_size) for _ in range(config.tests)]
            sizes[0] = min(sizes[0], 5)  # a small test for the example
            limits = (f"Limits: T <= {config.tests}; every number, word or list in a test has at most "
                      f"{3 * config.max_size} digits, letters or elements; array values are between -20 and 30.")
            return stdio_problem(rng, template, sizes, limits_text=limits)

        return retry(draw, attempts=50, what="a dynamic-programming problem with varied answers")
