"""Biology envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

from palaestra.core.registry import make_source
from palaestra.envs.biology.common import CODONS, reverse_complement, translate
from palaestra.verifiers.numeric import format_number


def _with_data(env_id: str, **data: object) -> tuple[Any, Any]:
    task = make_source(env_id)
    problem = task.sample(1, 0)
    return task, dataclasses.replace(problem, data={**problem.data, **data})


def test_codon_table_is_the_standard_code() -> None:
    assert len(CODONS) == 64 and sorted(c for c, a in CODONS.items() if a == "*") == ["TAA", "TAG", "TGA"]
    assert CODONS["ATG"] == "M" and CODONS["TGG"] == "W" and CODONS["AGA"] == "R" and CODONS["GGG"] == "G"
    assert sum(a == "L" for a in CODONS.values()) == 6 and sum(a == "S" for a in CODONS.values()) == 6


def test_translation_hand_checked_and_first_wrong_letter_named() -> None:
    assert translate("ATG") == "M"  # AUG → Met
    assert translate("ATGTTTGGCTAAGGG") == "MFG"  # AUG UUU GGC UAA: stops before the trailer
    task, problem = _with_data("biology/translation", protein="MFG")
    for right in ("MFG", "mfg", "M-F-G", "MFG*", "\\boxed{MFG}", "The protein is MFG."):
        assert task.verify(problem, right).correct, right
    assert "letter 2" in task.verify(problem, "MLG").feedback
    assert not task.verify(problem, "MFG or MF").correct
    assert not task.verify(problem, "FG").correct


def test_translation_template_strand_needs_the_reverse_complement() -> None:
    task = make_source("biology/translation")
    problem = task.sample(4, 3)  # level 4: the template strand
    assert problem.data["mode"] == "template_scan"
    coding = reverse_complement(problem.data["sequence"])
    start = coding.index("ATG")
    assert translate(coding[start:]) == problem.answer
    assert task.verify(problem, problem.answer).correct


def test_reverse_complement_hand_checked_and_slips_named() -> None:
    assert reverse_complement("ATGC") == "GCAT"
    assert reverse_complement("AAGR") == "YCTT" and reverse_complement("BDHVN") == "NBDHV"
    task, problem = _with_data("biology/reverse_complement", strand="ATGCC")
    for right in ("GGCAT", "ggcat", "5'-GGCAT-3'", "GGC AT", "The reverse complement is GGCAT."):
        assert task.verify(problem, right).correct, right
    assert "reverse it" in task.verify(problem, "TACGG").feedback
    assert "not complemented" in task.verify(problem, "CCGTA").feedback
    assert "letter 3" in task.verify(problem, "GGAAT").feedback


def test_open_reading_frames_on_both_strands_hand_checked() -> None:
    from palaestra.envs.biology.open_reading_frames import strand_orfs

    # a 2-codon and a 3-codon ORF on the given strand, a 4-codon one on the other strand
    dna = "ATGTGA" + "ATGCCCTAG" + reverse_complement("ATGCCCTTTTAA")
    assert sorted(strand_orfs(dna)[0], key=len) == ["ATGTGA", "ATGCCCTAG"]
    assert strand_orfs(reverse_complement(dna))[0] == ["ATGCCCTTTTAA"]
    task, problem = _with_data("biology/open_reading_frames", dna=dna, longest=[9, 12])
    for right in ("given strand: ATGCCCTAG; reverse complement: ATGCCCTTTTAA",
                  "Reverse complement: atg ccc ttt taa\nGiven strand: 5'-ATGCCCTAG-3'",
                  "Forward: ATGCCCTAG, reverse: ATGCCCTTTTAA.",
                  "Longest ORF on the given strand: ATGCCCTAG\nLongest ORF on the other strand: ATGCCCTTTTAA"):
        assert task.verify(problem, right).correct, right
    assert "longer one exists" in task.verify(problem, "given: ATGTGA; reverse: ATGCCCTTTTAA").feedback
    assert "that strand" in task.verify(problem, "given: ATGCCCTAG; reverse: ATGCCCTTGTAA").feedback
    assert "stop codon" in task.verify(problem, "given: ATGCCCTAG; reverse: ATGCCCTTT").feedback
    assert "first one" in task.verify(problem, "given: ATGTGACCCTAG; reverse: ATGCCCTTTTAA").feedback
    # swapped labels name ORFs of the wrong strands; a hedge, a missing strand, a strand named twice, no labels
    assert not task.verify(problem, "given: ATGCCCTTTTAA; reverse: ATGCCCTAG").correct
    for unread in ("given: ATGCCCTAG or ATGTGA; reverse: ATGCCCTTTTAA", "reverse complement: ATGCCCTTTTAA",
                   "given: ATGCCCTAG; given: ATGCCCTTTTAA", "ATGCCCTAG\nATGCCCTTTTAA",
                   "given: ATGCCCTAG; reverse: ATGCCCTTTTAA; reverse: ATGCCCTTTTAA"):
        assert not task.verify(problem, unread).parsed, unread


def test_global_alignment_known_needleman_wunsch_score() -> None:
    from palaestra.envs.biology.common import alignment_table, best_alignment

    # the textbook example: GATTACA against GCATGCU, match +1, mismatch -1, gap -1, optimum 0
    assert alignment_table("GATTACA", "GCATGCU", (1, -1, -1), local=False)[-1][-1] == 0
    assert best_alignment("ACGT", "ACGT", (2, -1, -2), local=False) == (8, "ACGT", "ACGT")
    task, problem = _with_data("biology/global_alignment", a="ACGT", b="AGT", scoring=[1, -1, -1], score=2)
    for right in ("ACGT\nA-GT", "A: ACGT\nB: A-GT", "```\nACGT\nA-GT\n```", "acgt\na-gt"):
        assert task.verify(problem, right).correct, right
    assert "scores -2" in task.verify(problem, "ACGT\nAGT-").feedback  # +1 -1 -1 -1: valid but worse
    assert "does not give B" in task.verify(problem, "ACGT\nA-GA").feedback
    assert "equally long" in task.verify(problem, "ACGT\nAGT").feedback
    assert "gap in both" in task.verify(problem, "ACGT-\nA-GT-").feedback
    assert not task.verify(problem, "ACGT\nA-GT\nor\nACGT\nAG-T").parsed


def test_local_alignment_hand_checked() -> None:
    from palaestra.envs.biology.common import best_alignment

    # the shared stretch CGTA scores 4 x 2 = 8 with match +2; the flanks are unrelated
    assert best_alignment("TTCGTATT", "GGCGTAGG", (2, -1, -2), local=True)[0] == 8
    task, problem = _with_data("biology/local_alignment", a="TTCGTATT", b="GGCGTAGG", scoring=[2, -1, -2], score=8)
    for right in ("CGTA\nCGTA", "A: CGTA\nB: CGTA", "cgta\ncgta"):
        assert task.verify(problem, right).correct, right
    assert "scores 6" in task.verify(problem, "CGT\nCGT").feedback
    assert "stretch of A" in task.verify(problem, "CGTT\nCGTA").feedback
    assert "stretch of B" in task.verify(problem, "TTCGTA\nCGCGTA").feedback


def test_mendelian_dihybrid_cross_nine_three_three_one() -> None:

    from palaestra.envs.biology.mendelian_cross import canonical_genotype, gene_offspring

    assert gene_offspring("Tt", "Tt") == {"TT": Fraction(1, 4), "Tt": Fraction(1, 2), "tt": Fraction(1, 4)}
    assert canonical_genotype("pPtT", "PT") == "PpTt" and canonical_genotype("PPT", "PT") is None
    distribution = {"purple tall": "9/16", "purple short": "3/16", "white tall": "3/16", "white short": "1/16"}
    task, problem = _with_data("biology/mendelian_cross", genotypes=False, letters="PT", distribution=distribution)
    right = "tall purple: 9/16\npurple short: 3/16\nwhite tall: 0.1875\nwhite short: 1/16"
    assert task.verify(problem, right).correct
    assert task.verify(problem, "purple tall: 9/16; purple short: 3/16; white tall: 3/16; white short: 1/16").correct
    assert "white short occurs" in task.verify(problem, right.rsplit("\n", 1)[0]).feedback
    assert "fraction for purple tall" in task.verify(problem, right.replace("9/16", "3/4")).feedback
    wrong_extra = right + "\npurple medium: 0"
    assert not task.verify(problem, wrong_extra).correct


def test_hardy_weinberg_hand_checked_values() -> None:
    import random as random_module

    task = make_source("biology/hardy_weinberg")
    # q² = 1/16: q = 1/4, carriers 2pq = 3/8, and among dominant-trait individuals 2q/(1+q) = 2/5
    _, carriers = _with_data("biology/hardy_weinberg", kind="carriers", value="3/8")
    for right in ("3/8", "0.375", "\\boxed{3/8}", "Answer: 6/16."):
        assert task.verify(carriers, right).correct, right
    assert not task.verify(carriers, "0.38").correct  # rounded
    assert not task.verify(carriers, "3/8 or 5/8").correct
    # the generator's own arithmetic on a drawn sample of counts: q = (2·aa + Aa) / (2N)
    problem = task.generate(random_module.Random(5), task.Config(("allele",), 40))
    line = next(x for x in problem.prompt.split("\n") if x.startswith("A sample"))
    counts = [int(word.strip(",.")) for word in line.split(": ")[1].split() if word.strip(",.").isdigit()]
    assert problem.answer == format_number(Fraction(2 * counts[2] + counts[1], 2 * sum(counts)))


def test_fitch_parsimony_hand_checked_and_assignments_optimal() -> None:
    from palaestra.envs.biology.fitch_parsimony import assignment_cost, most_parsimonious, parse_newick

    # ((t1,t2)n1,(t3,t4)n2)n3 with A, A, C, C at one site: one change (on the edge into either cherry)
    tree = parse_newick("((t1,t2)n1,(t3,t4)n2)n3")
    leaves = {"t1": "AG", "t2": "AG", "t3": "CG", "t4": "CT"}
    changes, assignment = most_parsimonious(tree, leaves)
    assert changes == 2 and assignment_cost(tree, leaves, assignment) == 2
    task, problem = _with_data("biology/fitch_parsimony", tree="((t1,t2)n1,(t3,t4)n2)n3", sequences=leaves, changes=2)
    for right in ("n1: AG\nn2: CG\nn3: AG", "n3: CG; n2: CG; n1: AG", "n1: ag\nn2: cg\nn3: cg"):
        assert task.verify(problem, right).correct, right
    assert "costs 3" in task.verify(problem, "n1: AG\nn2: CG\nn3: TG").feedback
    assert not task.verify(problem, "n1: AG\nn2: CG").parsed  # n3 missing
    assert not task.verify(problem, "n1: AG\nn2: CGA\nn3: AG").parsed  # wrong length
    source = make_source("biology/fitch_parsimony")
    for seed in range(30):  # the generator's reference reaches the Fitch minimum on drawn trees
        drawn = source.sample(3, seed)
        written = dict(line.split(": ") for line in drawn.answer.split("\n"))
        assert assignment_cost(parse_newick(drawn.data["tree"]), drawn.data["sequences"], written) == drawn.data["changes"]


def test_population_growth_hand_checked_steps() -> None:
    from palaestra.envs.biology.population_growth import trajectory

    # H = 100, P = 10, a = 1/2, b = 1/100, c = 1/2, d = 1/5: H1 = 100 + 50 - 10 = 140, P1 = 10 + 5 - 2 = 13
    # H2 = 140 + 70 - 18.2 = 191.8 -> 191, P2 = 13 + 9.1 - 2.6 = 19.5 -> 19
    rates = (Fraction(1, 2), Fraction(1, 100), Fraction(1, 2), Fraction(1, 5))
    assert trajectory("predator_prey", rates, (100, 10), 2, math.floor) == [(100, 10), (140, 13), (191, 19)]
    task, problem = _with_data("biology/population_growth", kind="predator_prey", steps=2, value=19)
    for right in ("19", "\\boxed{19}", "Answer: 19.", "19 predators"):
        assert task.verify(problem, right).correct, right
    assert not task.verify(problem, "19.5").correct  # not rounded down
    assert not task.verify(problem, "19 or 20").correct
    level_zero = make_source("biology/population_growth").sample(0, 3)  # exponential: floor(R·N) twice
    line = level_zero.prompt.split("\n")[0]
    growth = Fraction(line.split("R = ")[1].split(",")[0])
    start = int(line.split("N(0) = ")[1].rstrip("."))
    assert level_zero.answer == str(int(growth * int(growth * start)))
