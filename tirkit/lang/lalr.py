"""A lean LALR(1) driver over the parse table Lark computes for ``tvmscript.lark`` (no TVM
counterpart: TVM uses Python's own parser).

Lark's generic loop looks every reduction up in a dict keyed by ``Rule`` objects (hashed in
Python) and calls a wrapper even for the many unit reductions of an expression grammar
(``atom -> power -> factor -> term -> ...``).  :class:`Tables` converts the table once into
plain dicts and tuples and marks unit reductions of ``?rule``s, which then cost a stack
update only; :class:`LalrState` runs the table and exposes its stacks to error recovery.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from lark import Lark, Token
from lark.parsers.lalr_analysis import Shift

#: Pseudo-symbol that error recovery shifts where a statement was dropped.
STATEMENT = "stmt"


class ParseError(Exception):
    """The token cannot continue the input (Lark's ``UnexpectedToken``); ``expected`` holds
    the terminal names that could."""

    def __init__(self, token: Token, expected: set[str], index: int = -1) -> None:
        super().__init__(f"unexpected {token.type}")
        self.token = token
        self.expected = expected
        self.index = index  # the token's position in the list given to LalrState.feed_all


class Tables:
    """The parse table of a Lark LALR parser in a form fast to interpret.

    ``actions[state][symbol]`` is ``(True, next_state)`` for a shift or goto and
    ``(False, rule_index)`` for a reduction; ``rules[rule_index]`` is
    ``(length, origin_name, callback_or_None)`` where ``None`` means "keep the only child".
    """

    def __init__(self, lark: Lark, builder: object) -> None:
        table = lark.parser.parser.parser.parse_table    # frontend -> LALR_Parser -> _Parser
        rule_ids: dict[Any, int] = {}
        self.rules: list[tuple[int, str, Optional[Callable]]] = []
        self.actions: dict[Any, dict[str, tuple[bool, Any]]] = {}
        for state, row in table.states.items():
            out = {}
            for symbol, (action, arg) in row.items():
                if action is Shift:
                    out[symbol] = (True, arg)
                    continue
                if arg not in rule_ids:
                    rule_ids[arg] = len(self.rules)
                    self.rules.append(_rule_entry(arg, builder))
                out[symbol] = (False, rule_ids[arg])
            self.actions[state] = out
        self.unit_chains: dict[tuple, Any] = {}
        self.start = table.start_states["file_input"]
        self.end = table.end_states["file_input"]


def _is_helper(symbol: Any) -> bool:
    """Lark's inlined nonterminals: ``_rule``s and the ``__rule_star_N`` helpers it makes
    for ``*``/``+`` repetitions."""
    return not symbol.is_term and symbol.name.startswith("_")


def _rule_entry(rule: Any, builder: object) -> tuple[int, str, Optional[Callable]]:
    """``(length, origin, callback)`` of one rule: the callback splices the children of
    inlined helpers, keeps a lone child of a ``?rule`` and calls the builder's method named
    after the rule (or its alias).  ``None`` marks a unit reduction."""
    expansion, options = rule.expansion, rule.options
    splice = tuple(i for i, sym in enumerate(expansion) if _is_helper(sym))
    inline_single = options.expand1 and not rule.alias
    name = rule.alias or rule.origin.name
    method = list if _is_helper(rule.origin) else getattr(builder, name, None)
    if method is None:
        if not inline_single:
            raise TypeError(f"{type(builder).__name__} has no callback for rule {name!r}")
        method = _only_child
    if inline_single and len(expansion) == 1 and not splice:
        return 1, rule.origin.name, None
    return len(expansion), rule.origin.name, _make_callback(method, splice, inline_single)


def _only_child(children: list) -> Any:
    (child,) = children
    return child


def _make_callback(method: Callable, splice: tuple[int, ...], inline_single: bool) -> Callable:
    if not splice and not inline_single:
        return method
    if method is list and splice[:1] == (0,):
        rest = frozenset(splice[1:])

        def grow(children: list) -> list:      # left-recursive repetition: extend in place
            items = children[0]
            for i in range(1, len(children)):
                if i in rest:
                    items.extend(children[i])
                else:
                    items.append(children[i])
            return items
        return grow
    positions = frozenset(splice)

    def callback(children: list) -> Any:
        if positions:
            flat: list = []
            for i, child in enumerate(children):
                if i in positions:
                    flat.extend(child)
                else:
                    flat.append(child)
            children = flat
        if inline_single and len(children) == 1:
            return children[0]
        return method(children)
    return callback


class LalrState:
    """The stacks of one parse; :meth:`feed` advances them by one token."""

    __slots__ = ("tables", "states", "values")

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.states: list = [tables.start]
        self.values: list = []

    def expected(self) -> set[str]:
        """Terminal names acceptable in the current state."""
        return {s for s in self.tables.actions[self.states[-1]] if s.isupper()}

    def accepts(self, symbol: str) -> bool:
        """Whether the current state has an action on ``symbol``."""
        return symbol in self.tables.actions[self.states[-1]]

    def feed(self, token: Token) -> None:
        """Shift ``token`` after the reductions it triggers; raise :class:`ParseError` (with
        the stacks possibly reduced but the token not shifted) when it does not fit."""
        self.feed_all([token])

    def feed_all(self, tokens: list[Token], start: int = 0) -> None:
        """:meth:`feed` each of ``tokens[start:]`` in turn (one call for the whole stream, the
        parser's common case); the :class:`ParseError` of a token that does not fit carries its
        ``index``, the tokens before it having been shifted."""
        actions, rules = self.tables.actions, self.tables.rules
        chains = self.tables.unit_chains
        states, values = self.states, self.values
        for index in range(start, len(tokens)):
            token = tokens[index]
            kind = token.type
            while True:
                try:
                    is_shift, arg = actions[states[-1]][kind]
                except KeyError:
                    raise ParseError(token, self.expected(), index) from None
                if is_shift:
                    states.append(arg)
                    values.append(token)
                    break
                size, origin, callback = rules[arg]
                if callback is None:
                    key = (states[-2], states[-1], kind)
                    top = chains.get(key)
                    if top is None:
                        top = chains[key] = self._unit_chain(key)
                    states[-1] = top
                    continue
                children = values[-size:] if size else []
                if size:
                    del states[-size:]
                    del values[-size:]
                value = callback(children)
                states.append(actions[states[-1]][origin][1])
                values.append(value)

    def _unit_chain(self, key: tuple) -> Any:
        """The top state after the run of unit reductions (``?rule: child``) that ``kind``
        triggers with ``top`` over ``below``: such reductions touch the top only, so the run
        is a function of the three and is computed once."""
        below, top, kind = key
        actions, rules = self.tables.actions, self.tables.rules
        while True:
            is_shift, arg = actions[top].get(kind, (True, None))
            if is_shift or rules[arg][2] is not None:
                return top
            top = actions[below][rules[arg][1]][1]

    def finish(self, token: Token) -> Any:
        """Reduce at end of input (``token`` is ``$END``); the start symbol's value."""
        actions, rules = self.tables.actions, self.tables.rules
        states, values = self.states, self.values
        end = self.tables.end
        while True:
            try:
                is_shift, arg = actions[states[-1]]["$END"]
            except KeyError:
                raise ParseError(token, self.expected()) from None
            assert not is_shift
            size, origin, callback = rules[arg]
            children = values[-size:] if size else []
            if size:
                del states[-size:]
                del values[-size:]
            value = children[0] if callback is None else callback(children)
            states.append(actions[states[-1]][origin][1])
            values.append(value)
            if states[-1] == end:
                return value

    def shift_statement(self) -> None:
        """Drop the partial statement on the stacks: pop to the innermost state where a
        statement may start and shift an empty statement there (yacc's ``error`` token)."""
        actions, states, values = self.tables.actions, self.states, self.values
        while STATEMENT not in actions[states[-1]] and len(states) > 1:
            states.pop()
            values.pop()
        states.append(actions[states[-1]][STATEMENT][1])
        values.append(None)
