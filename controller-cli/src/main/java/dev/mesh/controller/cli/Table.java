package dev.mesh.controller.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows printed under a header of upper-case names, in columns two spaces apart, each as wide as its
 * widest cell; the last column is not padded. A table without rows prints a line saying so instead.
 */
final class Table {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    private Table(List<String> header) {
        this.header = List.copyOf(header);
    }

    /** @return a table with these column names */
    static Table of(String... header) {
        return new Table(List.of(header));
    }

    /** Adds a row of as many cells as the header has names. */
    Table row(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + header.size()
                    + " columns");
        }
        rows.add(List.of(cells));
        return this;
    }

    /**
     * @param out where to print
     * @param empty the line printed instead when there are no rows
     */
    void print(PrintWriter out, String empty) {
        if (rows.isEmpty()) {
            out.println(empty);
            return;
        }
        int[] widths = new int[header.size()];
        for (List<String> row : withHeader()) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], width(row.get(i)));
            }
        }
        for (List<String> row : withHeader()) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(cell);
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - width(cell) + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private List<List<String>> withHeader() {
        List<List<String>> all = new ArrayList<>(rows.size() + 1);
        all.add(header);
        all.addAll(rows);
        return all;
    }

    private static int width(String cell) {
        return cell.codePointCount(0, cell.length());
    }
}
