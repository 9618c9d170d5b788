"""What the fingerprinting attacks of Bun, Nissim, Stemmer, "Simultaneous Private
Learning of Multiple Concepts", Section 4, share: the Boneh-Shaw attack on THRESH
(``bns_fp_thresh``: Thm 4.3, Rem 4.4, Cor 4.6) and the Tardos attack on agnostic
learners (``bns_fp_agnostic``: Thm 4.7, Rem 4.8, Cor 4.10, Prop 4.11).

A point names the code's users, the learner's k label columns (at least the code's
length; the rest are constant 0), the learner and the measured event; the code's
security is xi = 1/(6 e^eps users) (our choice, so that users e^eps xi = 1/6).
Subclasses give the code's length function and the smallest code that makes sense.
"""

from __future__ import annotations

from privbounds.bounds import bns as bounds
from privbounds.params import ParameterError
from privbounds.simulators.engine.simulator import Simulator, expand

BASE_AXES = {"epsilon": [1.0], "delta": [1e-7], "beta": [0.1]}


def column_audit_reason(attack_columns: str, shift: str, trials: str) -> dict:
    """The ``unaudited`` entry of an attack on the advanced direct sum (bns.cor4_6 and
    bns.cor4_10 write the same argument with their own numbers): at the audited k = 4 the
    columns' doubled budget stays under eps; at the attack's own k one column's loss is
    too small to resolve; one column is audited at the eps0 of k = 4 instead."""
    return {"the advanced direct sum as a whole, and one column at the attack's own k": (
        "no instance has power: at k = 4 and delta = 1e-7 the split gives eps0 = 0.085 per column, so even "
        f"with a doubled budget the 4 columns lose at most 4 x 0.171 = 0.68 < eps = 1; the attacks run at "
        f"{attack_columns}, where a doubled budget moves one column's loss on the best event by {shift}, which "
        f"takes some {trials} trials per side to resolve. One column is audited at the eps0 of k = 4 "
        "(privacy-column-advanced), through the same law code; the composition is Dwork-Roth Thm 3.20.")}


class FingerprintAttack(Simulator):
    code_name = "?"
    min_users = 2          # the smallest code the attack can use

    @staticmethod
    def code_length(users: int, xi: float) -> int:
        raise NotImplementedError

    @staticmethod
    def lower_bound_users(k, epsilon, delta, beta) -> int:
        """n_LB(k): the most users of a code of length <= k (the corollary's bound)."""
        raise NotImplementedError

    @staticmethod
    def xi(point) -> float:
        return float(bounds.fp_security(point["users"], point["epsilon"]))

    def check_point(self, point):
        super().check_point(point)
        length = int(self.code_length(point["users"], self.xi(point)))
        if point["k"] < length:
            raise ParameterError(f"k must be >= the {self.code_name} code length {length} for {point['users']} "
                                 f"users, got {point['k']}")
        if point["learner"] != "erm":
            if point["learner"] != "directsum-basic" and point["delta"] == 0:
                raise ParameterError("delta must be in (0, 1) for advanced composition, got 0")
            self.require_small_delta(point, " (approximate DP)")

    def with_code_length(self, pts: list[dict], overrides: dict) -> list[dict]:
        """Give each point the length of its code (users, xi = 1/(6 e^eps users)), unless
        the user set k (check_point then refuses a k shorter than the code)."""
        for p in pts:
            if "k" not in overrides:
                p["k"] = int(self.code_length(p["users"], float(bounds.fp_security(p["users"], p["epsilon"]))))
        return pts

    def grid_over_k(self, ks, axes: dict, overrides: dict) -> list[dict]:
        """Points over k, each with the code of n_LB(k) users (the corollaries' curves);
        k values too small for a usable code are dropped."""
        if "users" in overrides:
            raise ParameterError(f"users cannot be set for {self.theorem_id}: each k gets the largest code "
                                 "that fits (n_LB(k))")
        pts = []
        for p in expand({"k": ks, "users": [0], **axes}, overrides):
            p["users"] = int(self.lower_bound_users(p["k"], p["epsilon"], p["delta"], p["beta"]))
            if p["users"] >= self.min_users:
                pts.append(p)
        if not pts:
            length = int(self.code_length(self.min_users, float(bounds.fp_security(self.min_users, 1.0))))
            raise ParameterError(f"k must reach the length of a {self.min_users}-user {self.code_name} code "
                                 f"({length} at eps = 1)")
        return pts

    def n_floor(self, point):
        # n counts the attack database's rows, one at least per user of the code
        return point["users"]

    def privacy(self, point):
        if point["learner"] == "erm":
            return {"epsilon": None, "delta": None, "accounting": "non-private ERM (the attack's target)"}
        if point["learner"] == "directsum-basic":
            return {"epsilon": point["epsilon"], "delta": 0.0,
                    "accounting": "basic composition of k exponential mechanisms, eps / k each"}
        return {"epsilon": point["epsilon"], "delta": point["delta"],
                "accounting": "advanced composition (Dwork-Roth Thm 3.20) of k exponential mechanisms"}
