"""Classical cipher decoding with a crib: Caesar, affine and Vigenère ciphertexts of English words.

The plaintext is a few words from a list of common words; the ciphertext keeps the spaces. The
key is unknown, but a crib is given: the first word (Caesar), a word somewhere in the message
(Caesar, harder), the first word (affine: ``x -> a*x + b mod 26``), or the first letters and the
key length (Vigenère). Uniqueness is proved at generation by trying every key the crib allows:
every Caesar shift, every one of the 312 affine keys, every Vigenère key (fixed letter by letter
by the crib); exactly one key may fit. The answer is the plaintext; letters are compared, case
and spacing aside (a short trailing remark is read past).
"""

from __future__ import annotations

import math
import random
import string
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.verifiers.normalize import is_benign_tail, strip_wrappers, tail_splits, unify

ALPHABET = string.ascii_uppercase
MAX_ANSWER_CHARS = 2_000
AFFINE_MULTIPLIERS = [a for a in range(1, 26) if math.gcd(a, 26) == 1]


@cache
def words() -> tuple[str, ...]:
    return tuple(Path(__file__).with_name("words.txt").read_text().split())


@register
class Cipher(Task):
    id = "symbolic/cipher"
    family = "symbolic"
    description = "Decrypt a Caesar, affine or Vigenère ciphertext using a crib."
    tags = ("symbolic", "cipher", "cryptography")

    @dataclass(frozen=True)
    class Config:
        cipher: str  # caesar, affine, vigenere
        words: tuple[int, int]
        crib: str  # "first word", "some word", "first letters"
        key_length: tuple[int, int]  # Vigenère only

    def config(self, level: int) -> Config:
        return [
            self.Config(cipher="caesar", words=(4, 5), crib="first word", key_length=(1, 1)),
            self.Config(cipher="caesar", words=(6, 7), crib="some word", key_length=(1, 1)),
            self.Config(cipher="affine", words=(6, 7), crib="first word", key_length=(1, 1)),
            self.Config(cipher="vigenere", words=(7, 8), crib="first letters", key_length=(3, 4)),
            self.Config(cipher="vigenere", words=(9, 11), crib="first letters", key_length=(5, 6)),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict | None:
            plain = " ".join(rng.choice(words()) for _ in range(rng.randint(*config.words))).upper()
            if config.cipher == "caesar":
                key: list[int] = [rng.randrange(1, 26)]
            elif config.cipher == "affine":
                key = [rng.choice(AFFINE_MULTIPLIERS[1:]), rng.randrange(26)]
            else:
                key = [rng.randrange(26) for _ in range(rng.randint(*config.key_length))]
            cipher = encrypt(config.cipher, key, plain)
            crib = _crib(rng, config, plain, len(key))
            if crib is None or len(_fitting_keys(config.cipher, cipher, crib, len(key))) != 1:
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
        }[kind]
        hint = {
            "first word": f'The first word of the message is "{crib[1]}".',
            "some word": f'The word "{crib[1]}" appears somewhere in the message.',
            "first letters": f'The message begins with the letters "{crib[1]}".',
        }[crib[0]]
        prompt = (
            f"This message was encrypted with {how}. Spaces were kept as they are.\n\n"
            f"Ciphertext: {setup['text']}\n\n{hint}\n"
            "Decrypt the whole message. Give the plaintext in capital letters with its spaces, for example: "
            "MEET ME AT THE BRIDGE"
        )
        return Problem(prompt=prompt, answer=setup["plain"], data=setup)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
            return Verdict.unparsed("answer too long")
        want = _letters(problem.data["plain"])
        candidates = _readings(answer)
        if not any(c for c in candidates):
            return Verdict.unparsed("expected the plaintext letters")
        if any(c == want for c in candidates):
            return Verdict.right()
        return Verdict.wrong("the plaintext is not right")

    def difficulty(self, problem: Problem) -> float:
        """Ciphertext letters times the key size the crib must pin down (1 Caesar, 2 affine, key length)."""
        return float(len(_letters(problem.data["text"])) * len(problem.data["key"]))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.lower(), gold.replace(" ", ""), gold.title(),
                f'"{gold}"', f"{gold}. That is the decrypted message."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        data = problem.data
        wrong_key = [(k + 1) % 26 for k in data["key"]]
        if data["cipher"] == "affine":
            wrong_key = [data["key"][0], (data["key"][1] + 1) % 26]
        shifted = decrypt(data["cipher"], wrong_key, data["text"])
        i = next(k for k, ch in enumerate(gold) if ch != " ")
        typo = gold[:i] + ("A" if gold[i] != "A" else "B") + gold[i + 1 :]
        return [data["text"], shifted, typo, " ".join(gold.split()[:-1]), f"{gold} OR {data['text']}"]


def _letters(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch in ALPHABET)


def _readings(answer: str) -> list[str]:
    """The answer's letters, and those of the answer without a benign trailing remark."""
    whole = strip_wrappers(unify(answer))
    found = [_letters(whole)] if all(ch.isalpha() or ch in " \n'\",.!-" for ch in whole) else []
    for head, tail in tail_splits(whole):
        if is_benign_tail(tail):
            found.append(_letters(head))
    return found


def _shift(letter: str, amount: int) -> str:
    return ALPHABET[(ALPHABET.index(letter) + amount) % 26]


def encrypt(kind: str, key: list[int], plain: str) -> str:
    out, position = [], 0
    for ch in plain:
        if ch not in ALPHABET:
            out.append(ch)
            continue
        if kind == "affine":
            out.append(ALPHABET[(key[0] * ALPHABET.index(ch) + key[1]) % 26])
        else:
            out.append(_shift(ch, key[position % len(key)]))
        position += 1
    return "".join(out)


def decrypt(kind: str, key: list[int], text: str) -> str:
    if kind == "affine":
        inverse = pow(key[0], -1, 26)
        return "".join(ALPHABET[inverse * (ALPHABET.index(ch) - key[1]) % 26] if ch in ALPHABET else ch for ch in text)
    return encrypt(kind, [-k for k in key], text)


def _crib(rng: random.Random, config: Cipher.Config, plain: str, key_length: int) -> list[str] | None:
    if config.crib == "first word":
        return ["first word", plain.split()[0]]
    if config.crib == "some word":
        return ["some word", rng.choice(plain.split()[1:])]
    letters = _letters(plain)
    size = key_length + rng.randint(1, 2)
    return ["first letters", letters[:size]] if len(letters) > size else None


def _fitting_keys(kind: str, text: str, crib: list[str], key_length: int) -> list[list[int]]:
    """Every key under which ``text`` decrypts to something the crib allows."""
    if kind == "caesar":
        keys = [[k] for k in range(26)]
    elif kind == "affine":
        keys = [[a, b] for a in AFFINE_MULTIPLIERS for b in range(26)]
    else:
        # the crib's first letters fix each key letter; the rest of the crib must then agree
        cipher_letters = _letters(text)
        key = [(ALPHABET.index(cipher_letters[i]) - ALPHABET.index(crib[1][i])) % 26 for i in range(key_length)]
        keys = [key]
    fitting = []
    for key in keys:
        plain = decrypt(kind, key, text)
        if crib[0] == "first word" and plain.split()[0] == crib[1]:
            fitting.append(key)
        elif crib[0] == "some word" and crib[1] in plain.split():
            fitting.append(key)
        elif crib[0] == "first letters" and _letters(plain).startswith(crib[1]):
            fitting.append(key)
    return fitting
