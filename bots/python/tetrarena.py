"""tetrarena: the tetrarena engine from Python (standard library only).

The rules of every variant (link, tetroll, rush, matrix) as the referee
plays them, through ctypes over the engine's shared library
(lib/libtetrarena.so, built by `make`; its C interface is engine/api.h).
No compiler is needed to use it: only this file and the library.

    import tetrarena
    s = tetrarena.State.parse("link", go_line)   # the whole `go ...` line
    for m in s.moves():                          # legal moves, notation
        t = s.apply(m)                           # a new State after m
        print(m, t.scores())
    print(s.render())

The library is looked for, in order: load(PATH) called before the first
State; the environment variable TETRARENA_LIB; libtetrarena.so next to
this file; ../../lib/libtetrarena.so from this file (the repository's
layout, bots/python/ -> lib/). A jailed bot sees only what its command
line names and its workdir (protocol.md, "Where your bot runs"): either
copy this file and the library into the bot's workdir=, or name both on
the bot's command line (protocol.md, "The engine from Python").

Whose move: moves(), check() and apply() without a player act for the
one who decides now (the seat whose turn it is, CHANCE at a chance step
such as link's roll, this seat in a simultaneous or real-time round), so
a search can walk a game tree from any State; give player= to ask about
one seat (then [] or NOT_NOW when it does not decide now).
"""
import ctypes
import os

__all__ = ["State", "EngineError", "load", "variants",
           "OK", "MALFORMED", "ILLEGAL", "NOT_NOW", "CHANCE"]

OK, MALFORMED, ILLEGAL, NOT_NOW, ARGUMENT = 0, -1, -2, -3, -4
CHANCE = -1
PHASES = {0: "turn", 1: "chance", 2: "simultaneous", 3: "realtime", 4: "over"}
API_VERSION = 1
_ERRORS = {MALFORMED: "malformed", ILLEGAL: "illegal", NOT_NOW: "not-now",
           ARGUMENT: "bad argument"}

_lib = None


class EngineError(ValueError):
    """A move or line the engine refuses; .code is MALFORMED, ILLEGAL,
    NOT_NOW or ARGUMENT (the referee's faults `malformed`, `illegal`)."""

    def __init__(self, code, what):
        super().__init__(f"{_ERRORS.get(code, code)}: {what}")
        self.code = code


def _candidates():
    env = os.environ.get("TETRARENA_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libtetrarena.so")
    yield os.path.join(here, "..", "..", "lib", "libtetrarena.so")


def load(path=None):
    """Load the engine library (from path, or the places above) and return
    the ctypes handle. Raises OSError when it cannot be found or loaded."""
    global _lib
    if _lib is not None and path is None:
        return _lib
    paths = [path] if path else [p for p in _candidates() if os.path.exists(p)]
    if not paths:
        raise OSError("tetrarena: libtetrarena.so not found (set TETRARENA_LIB, "
                      "or put it next to tetrarena.py)")
    lib = ctypes.CDLL(os.path.abspath(paths[0]))
    _declare(lib)
    if lib.tetra_api_version() != API_VERSION:
        raise OSError(f"tetrarena: {paths[0]} has API version "
                      f"{lib.tetra_api_version()}, this module wants {API_VERSION}")
    _lib = lib
    return lib


def _declare(lib):
    P, I, C, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t
    L = ctypes.c_long
    sig = {
        "tetra_api_version": (I, []),
        "tetra_variant_name": (C, [I]),
        "tetra_parse": (P, [C, I, C]),
        "tetra_copy": (P, [P]),
        "tetra_free": (None, [P]),
        "tetra_variant": (C, [P]),
        "tetra_seat": (I, [P]),
        "tetra_players": (I, [P]),
        "tetra_phase": (I, [P, ctypes.POINTER(ctypes.c_uint)]),
        "tetra_moves": (L, [P, I, C, S]),
        "tetra_check": (I, [P, I, C]),
        "tetra_apply": (I, [P, I, C]),
        "tetra_apply_round": (I, [P, ctypes.POINTER(C)]),
        "tetra_scores": (I, [P, ctypes.POINTER(I), I]),
        "tetra_lower_score_wins": (I, [P]),
        "tetra_render": (L, [P, C, S]),
        "tetra_format": (L, [P, I, C, S]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


def variants():
    """The names of the variants the engine knows."""
    lib = load()
    out, i = [], 0
    while lib.tetra_variant_name(i):
        out.append(lib.tetra_variant_name(i).decode())
        i += 1
    return out


def _text(call, *args):
    """Call a snprintf-style function of the API and return its text."""
    cap = 4096
    while True:
        buf = ctypes.create_string_buffer(cap)
        n = call(*args, buf, cap)
        if n < 0:
            raise EngineError(n, "no text")
        if n < cap:
            return buf.value.decode("ascii")
        cap = n + 1


class State:
    """One game state of one variant as one seat sees it (a `go` line).

    States are values: apply() returns a new State and leaves this one as
    it was, so a search can branch freely. Each holds a little C memory,
    freed when the object is collected.
    """

    __slots__ = ("_h", "variant", "seat")

    def __init__(self, handle, variant, seat):
        self._h = handle
        self.variant = variant
        self.seat = seat

    @classmethod
    def parse(cls, variant, line, seat=None, game=None):
        """The state `line` shows (a whole `go MS bank=B ...` line or only
        its key=value fields) in `variant`, seen by `seat`. Without seat:
        the seat whose turn it is (link, tetroll: their `go` says
        `current`). Rush's and matrix's `go` lines do not say whose they
        are, so a wrong seat would go unnoticed: give the session's whole
        `game` line as game= (its seat= and variant= are taken from it,
        and a seat= or variant that differs is refused), or seat=.
        Raises ValueError when the line does not parse, the seat is not
        one of the game's, or neither is given where the variant needs it."""
        lib = load()
        if game is not None:
            fields = dict(w.split("=", 1) for w in game.split() if "=" in w)
            if not game.startswith("game ") or "seat" not in fields:
                raise ValueError(f"tetrarena: not a `game` line: {game[:80]}")
            if fields.get("variant", variant) != variant:
                raise ValueError(f"tetrarena: the game line is of {fields['variant']}, "
                                 f"not {variant}")
            if seat is not None and int(seat) != int(fields["seat"]):
                raise ValueError(f"tetrarena: seat {seat}, but the game line says "
                                 f"seat={fields['seat']}")
            seat = int(fields["seat"])
        if seat is None and variant in ("rush", "matrix"):
            raise ValueError(f"tetrarena: a {variant} `go` line does not say whose it "
                             "is: give game= (the `game` line) or seat=")
        h = lib.tetra_parse(variant.encode(), -1 if seat is None else int(seat),
                            line.encode())
        if not h:
            raise ValueError(f"tetrarena: not a {variant} state for seat {seat}: "
                             f"{line[:80]}")
        return cls(h, variant, lib.tetra_seat(h))

    def __del__(self):
        if self._h and _lib is not None:
            _lib.tetra_free(self._h)
            self._h = None

    def copy(self):
        h = _lib.tetra_copy(self._h)
        if not h:
            raise MemoryError("tetrarena: copy")
        return State(h, self.variant, self.seat)

    @property
    def players(self):
        return _lib.tetra_players(self._h)

    def phase(self):
        """(phase, seats deciding): phase one of 'turn', 'chance',
        'simultaneous', 'realtime', 'over'; seats a list."""
        mask = ctypes.c_uint(0)
        ph = _lib.tetra_phase(self._h, ctypes.byref(mask))
        return PHASES[ph], [p for p in range(self.players) if mask.value >> p & 1]

    def over(self):
        return self.phase()[0] == "over"

    def mover(self):
        """Who decides now: the seat whose turn it is, CHANCE at a chance
        step, this seat in a simultaneous or real-time round (or the
        first deciding seat if this one does not decide), None when the
        game is over."""
        phase, seats = self.phase()
        if phase == "chance":
            return CHANCE
        if phase == "over" or not seats:
            return None
        return self.seat if self.seat in seats else seats[0]

    def _player(self, player):
        if player is not None:
            return player
        p = self.mover()
        return self.seat if p is None else p

    def moves(self, player=None):
        """Every legal move of `player` now, as notation strings (default:
        the one who decides now, see mover(); [] once the game is over);
        with player= given, [] when that player does not decide now.
        CHANCE lists the chance outcomes where they can be listed (link's
        rolls, each one string such as 'roll T')."""
        p = self._player(player)
        text = _text(_lib.tetra_moves, self._h, p)
        words = text.split(" ") if text else []
        if p != CHANCE:
            return words
        # A chance outcome may be two words ("roll T"): the engine's
        # list separates moves and words alike by single spaces.
        out, i = [], 0
        while i < len(words):
            if (i + 1 < len(words) and _lib.tetra_check(self._h, p, words[i].encode()) != OK
                    and _lib.tetra_check(self._h, p, f"{words[i]} {words[i + 1]}".encode()) == OK):
                out.append(f"{words[i]} {words[i + 1]}")
                i += 2
            else:
                out.append(words[i])
                i += 1
        return out

    def check(self, move, player=None):
        """OK, MALFORMED, ILLEGAL or NOT_NOW: what the referee would say
        (player: default the one who decides now, see mover())."""
        p = self._player(player)
        return _lib.tetra_check(self._h, p, move.encode())

    def apply(self, move, player=None):
        """A new State after `move` of `player` (default: the one who
        decides now, see mover(); CHANCE for a chance move such as link's
        `roll T` or tetroll's `roll:25`). In a simultaneous round (matrix,
        rush lockstep) the other seats make no move: in matrix each of
        them misses the round and is charged as a seat that sent none
        (-5, as the referee scores a miss); use apply_round() to give
        each seat's move. Raises EngineError when the move is malformed,
        illegal or not now."""
        p = self._player(player)
        t = self.copy()
        err = _lib.tetra_apply(t._h, p, move.encode())
        if err != OK:
            raise EngineError(err, move)
        return t

    def apply_round(self, moves):
        """A new State after a simultaneous round: moves is a list with one
        move (or None) per seat, or a dict seat -> move."""
        if isinstance(moves, dict):
            moves = [moves.get(p) for p in range(self.players)]
        arr = (ctypes.c_char_p * self.players)(
            *[m.encode() if m else None for m in moves])
        t = self.copy()
        err = _lib.tetra_apply_round(t._h, arr)
        if err != OK:
            raise EngineError(err, " ".join(str(m) for m in moves))
        return t

    def scores(self):
        """Every seat's score now (in rush fewer is better: see
        lower_score_wins)."""
        arr = (ctypes.c_int * 8)()
        n = _lib.tetra_scores(self._h, arr, 8)
        return list(arr[:n])

    @property
    def lower_score_wins(self):
        return bool(_lib.tetra_lower_score_wins(self._h))

    def render(self):
        """A picture of the state, several lines of text."""
        return _text(_lib.tetra_render, self._h)

    def format(self, viewer=None):
        """The state as the key=value fields of a `go` line for `viewer`
        (default this seat; CHANCE: everything the state knows)."""
        v = self.seat if viewer is None else viewer
        return _text(_lib.tetra_format, self._h, v)

    def __repr__(self):
        return f"<tetrarena.State {self.variant} seat={self.seat}>"
