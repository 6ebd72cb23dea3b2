"""Classical cipher decoding with a crib: Caesar, affine, Vigenère and substitution ciphertexts.

The plaintext is a few words from a list of common words; the ciphertext keeps the spaces. The
key is unknown, but a crib is given: the first word (Caesar), a word somewhere in the message
(Caesar, harder), the first word (affine: ``x -> a*x + b mod 26``), the first letters and the
key length (Vigenère), or a few words that appear somewhere in the message (substitution: any
permutation of the alphabet; the crib words use every letter of the message, and they must be
found by their lengths and letter patterns). Uniqueness is proved at generation by trying every
key the crib allows: every Caesar shift, every one of the 312 affine keys, every Vigenère key
(fixed letter by letter by the crib), and for substitution every placement of the crib words on
ciphertext words that gives a consistent one-to-one letter mapping; exactly one plaintext may
result (a placement leaving a letter undetermined counts as another). The answer is the plaintext; letters are compared, case
and spacing aside (a short trailing remark is read past).

Version 2: a message whose first word is ANSWER (about 1 in 200 problems at every level) lost that word to the shared
lead-in reader, so the right plaintext scored 0 (5 of 1,000 level 0-4 references refused before, none now); the
answer is also read with that word hidden from the reader, and "Answer:" / "The final answer is" are labels here.
"""

from __future__ import annotations

import math
import random
import re
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.verifiers.normalize import strip_wrappers, unify, without_closing

ALPHABET = string.ascii_uppercase
AFFINE_MULTIPLIERS = [a for a in range(1, 26) if math.gcd(a, 26) == 1]
_LABEL = re.compile(r"^\s*(?:the\s+)?(?:final\s+)?(?:decrypted\s+|decoded\s+)?"
                    r"(?:plaintext|plain\s+text|message|decryption|answer)"
                    r"(?:\s+is\s*:?|\s*:)\s*", re.IGNORECASE)
_KEY_REMARK = re.compile(r"(?:\s*\(\s*(?:the\s+)?key\b[^()\n]{0,40}\)|\n\s*(?:the\s+)?key\b[^\n]{0,40})\s*\.?\s*$",
                         re.IGNORECASE)


@cache
def words() -> tuple[str, ...]:
    return tuple(Path(__file__).with_name("words.txt").read_text().split())


@register
class Cipher(Task):
    id = "symbolic/cipher"
    family = "symbolic"
    description = "Decrypt a Caesar, affine or Vigenère ciphertext using a crib."
    tags = ("symbolic", "cipher", "cryptography")
    max_answer_chars = 2_000
    version = 2  # v2: a message beginning with ANSWER is read whole (its first word was taken for a lead-in)

    @dataclass(frozen=True)
    class Config:
        cipher: str  # caesar, affine, vigenere, substitution
        words: tuple[int, int]
        crib: str  # "first word", "some word", "first letters", "words"
        key_length: tuple[int, int]  # Vigenère only

    presets = (
        Config(cipher="caesar", words=(4, 5), crib="first word", key_length=(1, 1)),
        Config(cipher="caesar", words=(6, 7), crib="some word", key_length=(1, 1)),
        Config(cipher="affine", words=(6, 7), crib="first word", key_length=(1, 1)),
        Config(cipher="vigenere", words=(8, 9), crib="first letters", key_length=(3, 6)),
        Config(cipher="substitution", words=(7, 9), crib="words", key_length=(1, 1)),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 5 to 6)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict | None:
            plain = " ".join(rng.choice(words()) for _ in range(rng.randint(*config.words))).upper()
            if config.cipher == "caesar":
                key: list[int] = [rng.randrange(1, 26)]
            elif config.cipher == "affine":
                key = [rng.choice(AFFINE_MULTIPLIERS[1:]), rng.randrange(26)]
            elif config.cipher == "substitution":
                key = rng.sample(range(26), 26)  # letter i becomes letter key[i]
            else:
                key = [rng.randrange(26) for _ in range(rng.randint(*config.key_length))]
            cipher = encrypt(config.cipher, key, plain)
            crib = _crib(rng, config, plain, len(key))
            if crib is None:
                return None
            if config.cipher == "substitution":
                if _substitution_readings(cipher, crib[1]) != {plain}:
                    return None
            elif len(_fitting_keys(config.cipher, cipher, crib, len(key))) != 1:
                return None
            return {"cipher": config.cipher, "key": key, "plain": plain, "text": cipher, "crib": crib}

        setup = retry(draw, what="a ciphertext whose crib fits exactly one key")
        kind, crib, key = setup["cipher"], setup["crib"], setup["key"]
        how = {
            "caesar": "a Caesar cipher: every letter is shifted the same number of places along the alphabet "
                      "(wrapping from Z to A)",
            "affine": "an affine cipher: with letters numbered A=0 to Z=25, each letter x becomes (a*x + b) mod 26 "
                      "for secret numbers a and b, a having no common factor with 26",
            "vigenere": f"a Vigenère cipher with a secret key of {len(key)} letters: the key is repeated along the "
                        "letters of the message (spaces are skipped) and each letter is shifted by the key letter "
                        "under it (A=0, B=1, ..., Z=25)",
            "substitution": "a substitution cipher: each letter is always replaced by the same secret letter, and "
                            "different letters by different letters",
        }[kind]
        hint = {
            "first word": f'The first word of the message is "{crib[1]}".',
            "some word": f'The word "{crib[1]}" appears somewhere in the message.',
            "first letters": f'The message begins with the letters "{crib[1]}".',
            "words": "These words all appear somewhere in the message (in some order, each at least once): "
                     + ", ".join(f'"{w}"' for w in (crib[1] if kind == "substitution" else [])) + ".",
        }[crib[0]]
        prompt = (
            f"This message was encrypted with {how}. Spaces were kept as they are.\n\n"
            f"Ciphertext: {setup['text']}\n\n{hint}\n"
            "Decrypt the whole message. Give the plaintext in capital letters with its spaces, for example: "
            "MEET ME AT THE BRIDGE"
        )
        return Problem(prompt=prompt, answer=setup["plain"], data=setup)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        want = _letters(problem.data["plain"])
        candidates = _readings(answer, problem.data["plain"].split()[0])
        if not any(c for c in candidates):
            return Verdict.unparsed("expected the plaintext letters")
        if any(c == want for c in candidates):
            return Verdict.right()
        return Verdict.wrong("the plaintext is not right")

    def difficulty(self, problem: Problem) -> float:
        """Ciphertext letters times the key size the crib must pin down (1 Caesar, 2 affine, the key length for
        Vigenère, the distinct letters for substitution)."""
        data = problem.data
        size = len(set(_letters(data["text"]))) if data["cipher"] == "substitution" else len(data["key"])
        return float(len(_letters(data["text"])) * size)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.lower(), gold.replace(" ", ""), gold.title(),
                f'"{gold}"', f"{gold}.", f"Plaintext: {gold}",
                f"The decrypted message is: {gold}", f"{gold} (key {problem.data['key'][0]})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        data = problem.data
        wrong_key = [(k + 1) % 26 for k in data["key"]]
        if data["cipher"] == "affine":
            wrong_key = [data["key"][0], (data["key"][1] + 1) % 26]
        shifted = decrypt(data["cipher"], wrong_key, data["text"])
        i = next(k for k, ch in enumerate(gold) if ch != " ")
        typo = gold[:i] + ("A" if gold[i] != "A" else "B") + gold[i + 1 :]
        return [data["text"], shifted, typo, " ".join(gold.split()[:-1]), f"{gold} OR {data['text']}",
                f"Plaintext: {typo} (key 3)", f"{gold} (or {shifted})"]


def _letters(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch in ALPHABET)


def _readings(answer: str, first_word: str) -> list[str]:
    """The answer's letters, also without a leading label ("Plaintext:"), a key remark ("(key 3)",
    "Key: LEMON" on its own line) nothing else: a trailing remark is read as letters of the message.

    The shared wrapper reader takes a leading "ANSWER" for a lead-in, so "ANSWER GREAT ENGINE" lost its first
    word and a right plaintext was refused: it is also read with the message's first word hidden from that
    reader ("Answer: ANSWER ..." then loses its label to ``_LABEL``)."""
    guard = re.compile(rf"(?<![A-Za-z]){re.escape(first_word)}(?![A-Za-z])", re.IGNORECASE)  # not model text

    def unwrap(text: str) -> str:  # the word comes back in capitals: letters are compared case aside
        return strip_wrappers(guard.sub("\x00", text.replace("\x00", ""))).replace("\x00", first_word)

    texts = []
    for whole in dict.fromkeys((strip_wrappers(unify(answer)), unwrap(unify(answer)))):
        texts.append(whole)
        bare = without_closing(whole)  # "\boxed{...}." : the wrapper inside a closing full stop
        if bare != whole:
            texts.append(bare)
        unlabelled = _KEY_REMARK.sub("", _LABEL.sub("", whole, count=1), count=1)
        if unlabelled != whole:
            texts.extend((strip_wrappers(unlabelled), unwrap(unlabelled)))
    found = []
    for text in texts:
        if all(ch.isalpha() or ch in " \n'\",.!-" for ch in text):
            found.append(_letters(text))
    return found


def _table(kind: str, key: list[int], position: int = 0) -> dict[int, int]:
    """The translation table encrypting one letter position (``position`` picks the Vigenère key letter)."""
    if kind == "affine":
        return _affine_table(key[0], key[1])
    if kind == "substitution":
        return str.maketrans(ALPHABET, "".join(ALPHABET[k] for k in key))
    return _shift_table(key[position % len(key)] % 26)


@cache
def _shift_table(amount: int) -> dict[int, int]:
    return str.maketrans(ALPHABET, ALPHABET[amount:] + ALPHABET[:amount])


@cache
def _affine_table(a: int, b: int) -> dict[int, int]:
    return str.maketrans(ALPHABET, "".join(ALPHABET[(a * i + b) % 26] for i in range(26)))


@cache
def _affine_inverse(a: int, b: int) -> dict[int, int]:
    inverse = pow(a, -1, 26)
    return str.maketrans(ALPHABET, "".join(ALPHABET[inverse * (i - b) % 26] for i in range(26)))


def encrypt(kind: str, key: list[int], plain: str) -> str:
    """``plain`` (capitals and spaces) encrypted; spaces kept, and the Vigenère key skips them."""
    if kind != "vigenere" or len(key) == 1:
        return plain.translate(_table(kind, key))
    out, position = [], 0
    for ch in plain:
        if ch not in ALPHABET:
            out.append(ch)
            continue
        out.append(ch.translate(_table(kind, key, position)))
        position += 1
    return "".join(out)


def decrypt(kind: str, key: list[int], text: str) -> str:
    if kind == "affine":
        return text.translate(_affine_inverse(key[0], key[1]))
    if kind == "substitution":
        return text.translate(str.maketrans("".join(ALPHABET[k] for k in key), ALPHABET))
    return encrypt(kind, [-k for k in key], text)


def _crib(rng: random.Random, config: Cipher.Config, plain: str, key_length: int) -> list[str] | None:
    if config.crib == "first word":
        return ["first word", plain.split()[0]]
    if config.crib == "some word":
        return ["some word", rng.choice(plain.split()[1:])]
    if config.crib == "words":
        return _covering_words(rng, plain)
    letters = _letters(plain)
    size = key_length + rng.randint(1, 2)
    return ["first letters", letters[:size]] if len(letters) > size else None


def _fitting_keys(kind: str, text: str, crib: list[str], key_length: int) -> list[list[int]]:
    """Every key under which ``text`` decrypts to something the crib allows.

    Caesar and affine keys map words to words letter by letter, so a key fits a word crib exactly when
    it encrypts the crib word into a ciphertext word (the first one, or any): one short translation per key.
    """
    if kind == "vigenere":
        # the crib's first letters fix each key letter; the rest of the crib must then agree
        cipher_letters = _letters(text)
        key = [(ALPHABET.index(cipher_letters[i]) - ALPHABET.index(crib[1][i])) % 26 for i in range(key_length)]
        return [key] if _letters(decrypt(kind, key, text)).startswith(crib[1]) else []
    keys = [[k] for k in range(26)] if kind == "caesar" else [[a, b] for a in AFFINE_MULTIPLIERS for b in range(26)]
    targets = {text.split()[0]} if crib[0] == "first word" else set(text.split())
    return [key for key in keys if encrypt(kind, key, crib[1]) in targets]


def _covering_words(rng: random.Random, plain: str) -> list | None:
    """Crib words for a substitution: distinct message words, added in random order while they bring new
    letters, until they use every letter of the message; None when that leaves fewer than two other words."""
    distinct = sorted(set(plain.split()))
    rng.shuffle(distinct)
    needed, chosen = set(_letters(plain)), []
    for word in distinct:
        if set(word) - set("".join(chosen)):
            chosen.append(word)
        if set("".join(chosen)) >= needed:
            break
    if len(distinct) - len(chosen) < 2:
        return None
    return ["words", sorted(chosen)]


def _pattern(word: str) -> tuple[int, ...]:
    """Where each letter first appears: ``LETTER`` and ``BITTER`` share the pattern 0 1 2 2 1 5."""
    return tuple(word.index(ch) for ch in word)


def _substitution_readings(text: str, crib: list[str], budget: int = 20_000) -> set[str]:
    """Every plaintext a substitution consistent with the crib gives: each crib word placed on a ciphertext
    word of the same letter pattern, the placements agreeing on a one-to-one letter mapping. A placement
    that leaves a ciphertext letter unmapped adds ``"?"`` (the plaintext is then not determined); so does
    running past ``budget`` search nodes."""
    cipher_words = sorted(set(text.split()))
    options = [[c for c in cipher_words if _pattern(c) == _pattern(word)] for word in crib]
    order = sorted(range(len(crib)), key=lambda i: len(options[i]))  # the most constrained crib word first
    readings: set[str] = set()
    stack: list[tuple[int, dict[str, str]]] = [(0, {})]
    for _ in range(budget):
        if not stack:
            return readings
        depth, mapping = stack.pop()
        if depth == len(order):
            if set(_letters(text)) <= set(mapping):
                readings.add(text.translate(str.maketrans(mapping)))
            else:
                readings.add("?")
            continue
        word = crib[order[depth]]
        for candidate in options[order[depth]]:
            extended = dict(mapping)
            if all(extended.setdefault(c, p) == p for c, p in zip(candidate, word)) and \
                    len(set(extended.values())) == len(extended):
                stack.append((depth + 1, extended))
    return readings | {"?"}
