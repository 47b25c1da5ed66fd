package dev.gauntlet.loadgen.transport;

/**
 * An intrusive doubly linked list of connections: O(1) append, removal and pop without
 * allocating. Connections are appended in deadline order, so the first one expires first.
 */
final class ConnectionList {
    private Connection first;
    private Connection last;
    private int size;

    void addLast(Connection connection) {
        connection.list = this;
        connection.previous = last;
        connection.next = null;
        if (last == null) {
            first = connection;
        } else {
            last.next = connection;
        }
        last = connection;
        size++;
    }

    void remove(Connection connection) {
        if (connection.list != this) {
            return;
        }
        if (connection.previous == null) {
            first = connection.next;
        } else {
            connection.previous.next = connection.next;
        }
        if (connection.next == null) {
            last = connection.previous;
        } else {
            connection.next.previous = connection.previous;
        }
        connection.list = null;
        connection.previous = null;
        connection.next = null;
        size--;
    }

    Connection pollLast() {
        Connection connection = last;
        if (connection != null) {
            remove(connection);
        }
        return connection;
    }

    Connection first() {
        return first;
    }

    int size() {
        return size;
    }
}
