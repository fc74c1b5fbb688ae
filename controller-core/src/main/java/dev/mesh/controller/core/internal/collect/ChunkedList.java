package dev.mesh.controller.core.internal.collect;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An unmodifiable list held in chunks of 1,024 elements, which the lists a {@link Builder} hands
 * out share: a builder that changes one element after handing out a list copies that element's
 * chunk and the table of chunks, not the whole list.
 *
 * <p>Why: an {@code IncrementalPlanner} hands every plan the declarations of the whole mesh, in node
 * order, and a re-plan after one assignment changes one or two of them. Copying 100,000
 * references into a new list each time was four fifths of such a re-plan at 100,000 nodes
 * (docs/composition-and-planning.md, "Plans"); copying a chunk and the table is a few kilobytes.
 *
 * @param <E> the elements, never null
 */
public final class ChunkedList<E> extends AbstractList<E> implements RandomAccess {

    private static final int SHIFT = 10;
    private static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    private final Object[][] chunks;
    private final int size;

    private ChunkedList(Object[][] chunks, int size) {
        this.chunks = chunks;
        this.size = size;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        Objects.checkIndex(index, size);
        return (E) chunks[index >>> SHIFT][index & MASK];
    }

    @Override
    public int size() {
        return size;
    }

    /**
     * A list of a fixed size whose elements are set one by one, and which hands out unmodifiable
     * snapshots of itself. Not thread-safe.
     *
     * @param <E> the elements
     */
    public static final class Builder<E> {
        private Object[][] chunks;
        private final int size;
        /** Whether the table of chunks, and each chunk, went into a snapshot: copied before written. */
        private boolean tableShared;
        private final boolean[] shared;
        private int missing;

        /** @param size the list's size; every element starts missing (null) */
        public Builder(int size) {
            this.size = size;
            int count = (size + MASK) >>> SHIFT;
            chunks = new Object[count][];
            for (int c = 0; c < count; c++) {
                chunks[c] = new Object[Math.min(CHUNK, size - (c << SHIFT))];
            }
            shared = new boolean[count];
            missing = size;
        }

        /** @return the element at {@code index}, null while missing */
        @SuppressWarnings("unchecked")
        public E get(int index) {
            Objects.checkIndex(index, size);
            return (E) chunks[index >>> SHIFT][index & MASK];
        }

        /**
         * @param element the element, or null to make it missing
         */
        public void set(int index, E element) {
            Objects.checkIndex(index, size);
            int c = index >>> SHIFT;
            Object was = chunks[c][index & MASK];
            if (was == element) {
                return;
            }
            if (tableShared) {
                chunks = chunks.clone();
                tableShared = false;
            }
            if (shared[c]) {
                chunks[c] = chunks[c].clone();
                shared[c] = false;
            }
            chunks[c][index & MASK] = element;
            missing += (element == null ? 1 : 0) - (was == null ? 1 : 0);
        }

        /** @return whether no element is missing, so that {@link #snapshot} may be called */
        public boolean complete() {
            return missing == 0;
        }

        /**
         * @return the elements as they are now, unmodifiable; later {@link #set}s do not change it
         * @throws IllegalStateException when an element is missing
         */
        public ChunkedList<E> snapshot() {
            if (missing > 0) {
                throw new IllegalStateException(missing + " of " + size + " elements missing");
            }
            tableShared = true;
            Arrays.fill(shared, true);
            return new ChunkedList<>(chunks, size);
        }
    }
}
