package dev.mesh.controller.manifest;

import dev.mesh.controller.manifest.GeneratedJson.Arr;
import dev.mesh.controller.manifest.GeneratedJson.Bool;
import dev.mesh.controller.manifest.GeneratedJson.Member;
import dev.mesh.controller.manifest.GeneratedJson.Null;
import dev.mesh.controller.manifest.GeneratedJson.Num;
import dev.mesh.controller.manifest.GeneratedJson.Obj;
import dev.mesh.controller.manifest.GeneratedJson.Str;
import dev.mesh.controller.manifest.GeneratedJson.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** One random change to a valid manifest; {@code target} and {@code choice} pick where and how. */
record Mutation(Kind kind, int target, int choice) {

    enum Kind { DELETE_FIELD, RENAME_KEY, RETYPE_VALUE, INSERT_DOLLAR_BRACE, DUPLICATE_ITEM, CHANGE_SCALAR }

    private static final String CHARACTERS = "abcdefghijklmnopqrstuvwxyzAEMZ0189-_.$";

    static Value applyAll(Value root, List<Mutation> mutations) {
        Value value = root;
        for (Mutation mutation : mutations) {
            value = mutation.apply(value);
        }
        return value;
    }

    Value apply(Value root) {
        List<List<Integer>> candidates = paths(root, List.of()).stream().filter(p -> applies(at(root, p), p))
                .toList();
        if (candidates.isEmpty()) {
            return root;
        }
        return with(root, candidates.get(target % candidates.size()), this::change);
    }

    private boolean applies(Value value, List<Integer> path) {
        return switch (kind) {
            case DELETE_FIELD, RENAME_KEY -> value instanceof Obj o && !o.members().isEmpty();
            case RETYPE_VALUE -> !path.isEmpty();
            case INSERT_DOLLAR_BRACE -> value instanceof Str;
            case DUPLICATE_ITEM -> value instanceof Arr a && !a.items().isEmpty();
            case CHANGE_SCALAR -> value instanceof Str || value instanceof Num || value instanceof Bool;
        };
    }

    private Value change(Value value) {
        return switch (kind) {
            case DELETE_FIELD -> {
                List<Member> members = new ArrayList<>(((Obj) value).members());
                members.remove(choice % members.size());
                yield new Obj(members);
            }
            case RENAME_KEY -> {
                List<Member> members = new ArrayList<>(((Obj) value).members());
                int i = choice % members.size();
                members.set(i, new Member(renameByOne(members.get(i).key(), choice / 7), members.get(i).value()));
                yield new Obj(members);
            }
            case RETYPE_VALUE -> {
                List<Value> others = Stream.<Value>of(new Str("mesh"), new Num("42"), new Bool(true), new Null(),
                        new Obj(List.of(new Member("module", new Str("m")))), new Arr(List.of(value)))
                        .filter(other -> other.getClass() != value.getClass()).toList();
                yield others.get(choice % others.size());
            }
            case INSERT_DOLLAR_BRACE -> {
                String s = ((Str) value).value();
                int at = choice % (s.length() + 1);
                yield new Str(s.substring(0, at) + "${" + s.substring(at));
            }
            case DUPLICATE_ITEM -> {
                List<Value> items = new ArrayList<>(((Arr) value).items());
                int i = choice % items.size();
                items.add(i + 1, items.get(i));
                yield new Arr(items);
            }
            case CHANGE_SCALAR -> switch (value) {
                case Bool bool -> new Bool(!bool.value());
                case Num num -> new Num(choice % 2 == 0 ? "-" + num.text() : num.text() + "0");
                case Str str -> new Str(renameByOne(str.value(), choice));
                default -> value;
            };
        };
    }

    /** A string one edit away: one character substituted, inserted or deleted. */
    static String renameByOne(String s, int how) {
        int op = s.isEmpty() ? 1 : how % 3;
        int at = (how / 3) % (s.length() + (op == 1 ? 1 : 0));
        char c = CHARACTERS.charAt((how / 7) % CHARACTERS.length());
        return switch (op) {
            case 0 -> {
                char other = c != s.charAt(at) ? c : CHARACTERS.charAt(((how / 7) + 1) % CHARACTERS.length());
                yield s.substring(0, at) + other + s.substring(at + 1);
            }
            case 1 -> s.substring(0, at) + c + s.substring(at);
            default -> s.substring(0, at) + s.substring(at + 1);
        };
    }

    private static List<List<Integer>> paths(Value value, List<Integer> path) {
        List<List<Integer>> all = new ArrayList<>();
        all.add(path);
        List<Value> children = children(value);
        for (int i = 0; i < children.size(); i++) {
            List<Integer> child = new ArrayList<>(path);
            child.add(i);
            all.addAll(paths(children.get(i), child));
        }
        return all;
    }

    private static List<Value> children(Value value) {
        return switch (value) {
            case Obj obj -> obj.members().stream().map(Member::value).toList();
            case Arr arr -> arr.items();
            default -> List.of();
        };
    }

    private static Value at(Value root, List<Integer> path) {
        Value value = root;
        for (int i : path) {
            value = children(value).get(i);
        }
        return value;
    }

    private static Value with(Value value, List<Integer> path, UnaryOperator<Value> change) {
        if (path.isEmpty()) {
            return change.apply(value);
        }
        int i = path.getFirst();
        List<Integer> rest = path.subList(1, path.size());
        return switch (value) {
            case Obj obj -> {
                List<Member> members = new ArrayList<>(obj.members());
                members.set(i, new Member(members.get(i).key(), with(members.get(i).value(), rest, change)));
                yield new Obj(members);
            }
            case Arr arr -> {
                List<Value> items = new ArrayList<>(arr.items());
                items.set(i, with(items.get(i), rest, change));
                yield new Arr(items);
            }
            default -> throw new IllegalArgumentException("no child " + i + " in " + value);
        };
    }
}
