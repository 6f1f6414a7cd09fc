package io.chainfeed.api.selector;

import io.chainfeed.api.selector.Expression.All;
import io.chainfeed.api.selector.Expression.And;
import io.chainfeed.api.selector.Expression.Not;
import io.chainfeed.api.selector.Expression.Or;
import io.chainfeed.api.selector.Expression.Test;
import io.chainfeed.api.selector.Selector.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Parses selector text (the grammar on {@link Selector}) into an {@link Expression} in
 * normal form: recursive descent over a token list; positions are 1-based character
 * offsets. One instance parses one text; {@link Selector#parse} checks the text's length
 * first.
 */
final class SelectorParser {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,79}");

    private static final Pattern SYMBOL = Pattern
        .compile("[A-Za-z0-9][A-Za-z0-9.\\-]{0,79}(:[A-Za-z0-9][A-Za-z0-9.\\-]{0,23})?");

    private record Token(String text, int pos) {
    }

    private final List<Token> tokens = new ArrayList<>();

    private final int end;

    private int i;

    private int tests;

    /**
     * @param text the selector text, not blank
     */
    SelectorParser(String text) {
        end = text.length() + 1;
        int k = 0;
        while (k < text.length()) {
            char c = text.charAt(k);
            if (Character.isWhitespace(c)) {
                k++;
            }
            else if (c == '(' || c == ')') {
                tokens.add(new Token(String.valueOf(c), k + 1));
                k++;
            }
            else {
                int start = k;
                while (k < text.length() && !Character.isWhitespace(text.charAt(k)) && text.charAt(k) != '('
                        && text.charAt(k) != ')') {
                    k++;
                }
                tokens.add(new Token(text.substring(start, k), start + 1));
            }
        }
    }

    /**
     * @return the whole text as one expression
     * @throws SelectorException if the text is too deep, has too many tests, uses an
     * unknown field or a malformed value, or is not well formed; the message names the
     * problem and its position
     */
    Expression parseAll() {
        Expression n = or(0);
        if (i < tokens.size()) {
            Token t = tokens.get(i);
            throw new SelectorException(t.text().equals(")") ? "unbalanced ')' at position " + t.pos()
                    : "unexpected '" + t.text() + "' at position " + t.pos());
        }
        return n;
    }

    private Expression or(int depth) {
        List<Expression> parts = new ArrayList<>();
        parts.add(and(depth));
        while (isKeyword("OR")) {
            i++;
            parts.add(and(depth));
        }
        return combine(parts, false);
    }

    private Expression and(int depth) {
        List<Expression> parts = new ArrayList<>();
        parts.add(not(depth));
        while (i < tokens.size() && !isKeyword("OR") && !tokens.get(i).text().equals(")")) {
            if (isKeyword("AND")) {
                i++;
            }
            parts.add(not(depth));
        }
        return combine(parts, true);
    }

    private Expression not(int depth) {
        if (depth > Selector.MAX_DEPTH) {
            throw new SelectorException(
                    "the topic nests deeper than " + Selector.MAX_DEPTH + " levels at position " + pos());
        }
        if (isKeyword("NOT")) {
            i++;
            return negate(not(depth + 1));
        }
        return atom(depth);
    }

    private Expression atom(int depth) {
        if (i >= tokens.size()) {
            throw new SelectorException("the topic ends where a test was expected (position " + end
                    + "): add e.g. layer:<id>, company:<symbol>, term:<slug>, kind:<kind> or all");
        }
        Token t = tokens.get(i++);
        String text = t.text();
        if (text.equals("(")) {
            Expression inner = or(depth + 1);
            if (i >= tokens.size() || !tokens.get(i).text().equals(")")) {
                throw new SelectorException("the '(' at position " + t.pos() + " is never closed");
            }
            i++;
            return inner;
        }
        if (text.equals(")")) {
            throw new SelectorException("unexpected ')' at position " + t.pos());
        }
        String upper = text.toUpperCase(Locale.ROOT);
        if (upper.equals("AND") || upper.equals("OR")) {
            throw new SelectorException("'" + text + "' at position " + t.pos() + " needs a test on its left");
        }
        if (upper.equals("ALL")) {
            return new All();
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new SelectorException("'" + text + "' at position " + t.pos()
                    + " is not a test: use layer:<id>, company:<symbol>, term:<slug>, kind:<kind> or all");
        }
        String name = text.substring(0, colon).toLowerCase(Locale.ROOT);
        String value = text.substring(colon + 1);
        Field field = switch (name) {
            case "layer" -> Field.LAYER;
            case "company" -> Field.COMPANY;
            case "term" -> Field.TERM;
            case "kind" -> Field.KIND;
            default -> throw new SelectorException("unknown field '" + text.substring(0, colon) + "' at position "
                    + t.pos() + ": the fields are layer, company, term and kind");
        };
        if (value.isEmpty()) {
            throw new SelectorException("'" + name + ":' at position " + t.pos() + " has no value");
        }
        if (++tests > Selector.MAX_TESTS) {
            throw new SelectorException("the topic has more than " + Selector.MAX_TESTS + " tests");
        }
        return new Test(field, normalise(field, value, t.pos()));
    }

    private static String normalise(Field field, String value, int pos) {
        switch (field) {
            case LAYER, TERM -> {
                String v = value.toLowerCase(Locale.ROOT);
                if (!SLUG.matcher(v).matches()) {
                    throw new SelectorException("'" + value + "' at position " + pos + " is not a " + field.label()
                            + " " + (field == Field.LAYER ? "id" : "slug")
                            + " (lower-case letters, digits and hyphens)");
                }
                return v;
            }
            case COMPANY -> {
                if (!SYMBOL.matcher(value).matches()) {
                    throw new SelectorException("'" + value + "' at position " + pos
                            + " is not a company: give a ticker such as ANET, 2345.TW or XNYS:TSM, or a company id");
                }
                return value.toUpperCase(Locale.ROOT);
            }
            case KIND -> {
                String v = value.toLowerCase(Locale.ROOT);
                if (!v.equals("term") && !v.equals("signal") && !v.equals("state")) {
                    throw new SelectorException("kind '" + value + "' at position " + pos
                            + " is unknown: the kinds are term, signal and state");
                }
                return v;
            }
            default -> throw new IllegalStateException(field.name());
        }
    }

    private boolean isKeyword(String keyword) {
        return i < tokens.size() && tokens.get(i).text().equalsIgnoreCase(keyword);
    }

    private int pos() {
        return i < tokens.size() ? tokens.get(i).pos() : end;
    }

    private static Expression negate(Expression n) {
        return n instanceof Not x ? x.part() : new Not(n);
    }

    /**
     * Flattens nested operands of the same operator, drops duplicates and sorts them by
     * text.
     * @param parts the operands, at least one
     * @param and true for AND, false for OR
     * @return the one operand left, or their AND or OR
     */
    static Expression combine(List<Expression> parts, boolean and) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        TreeSet<String> seen = new TreeSet<>();
        List<Expression> flat = new ArrayList<>();
        for (Expression p : parts) {
            List<Expression> inner = and && p instanceof And a ? a.parts()
                    : !and && p instanceof Or o ? o.parts() : List.of(p);
            for (Expression q : inner) {
                if (seen.add(Expression.print(q, false))) {
                    flat.add(q);
                }
            }
        }
        flat.sort((x, y) -> Expression.print(x, false).compareTo(Expression.print(y, false)));
        if (flat.size() == 1) {
            return flat.get(0);
        }
        return and ? new And(List.copyOf(flat)) : new Or(List.copyOf(flat));
    }

}
