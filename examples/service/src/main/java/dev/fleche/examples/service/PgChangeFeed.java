package dev.fleche.examples.service;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code /changes} across replicas on PostgreSQL: a write is published with {@code NOTIFY todo_changes}; each
 * replica holds one connection (outside the pool) that {@code LISTEN}s on the channel and resumes its own
 * long-polls for every notification, its own writes' included. So a long-poll on any replica wakes for a write on
 * any replica.
 *
 * <pre>
 *   CONNECTING --LISTEN ok--> LISTENING --connection lost--> CONNECTING (after a backoff: 0.5 s doubling to 10 s;
 *        ^                                                               long-polls woken with "resync", since
 *        +-- close() from any state: STOPPED                             notifications may have been missed)
 * </pre>
 *
 * A notification sent while no connection listened is lost (PostgreSQL keeps none for a session that is not
 * there): the "resync" change on reconnecting tells the long-polls to read again.
 */
final class PgChangeFeed implements AutoCloseable {
    static final String CHANNEL = "todo_changes";
    private static final int POLL_MILLIS = 500;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    private static final System.Logger LOG = System.getLogger(PgChangeFeed.class.getName());

    private final String jdbcUrl;
    private final DataSource pool;
    private final Changes changes;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Thread listener;
    private volatile Connection listening;

    PgChangeFeed(String jdbcUrl, DataSource pool, Changes changes) {
        this.jdbcUrl = jdbcUrl;
        this.pool = pool;
        this.changes = changes;
        this.listener = new Thread(this::listen, "todo-listen");
        listener.setDaemon(true);
    }

    void start() {
        listener.start();
    }

    /**
     * {@code NOTIFY todo_changes, what} (every replica's long-polls wake). When the database cannot take it, this
     * replica's long-polls are woken directly: the write itself succeeded, so they should see it.
     */
    void publish(String what) {
        try (Connection connection = pool.getConnection();
             PreparedStatement notify = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
            notify.setString(1, CHANNEL);
            notify.setString(2, what);
            notify.execute();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "NOTIFY failed, waking this replica only: {0}", e.getMessage());
            changes.changed(what);
        }
    }

    private void listen() {
        Duration backoff = Duration.ofMillis(500);
        boolean missed = false;
        while (stopped.getCount() > 0) {
            try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + CHANNEL);
                }
                listening = connection;
                LOG.log(System.Logger.Level.INFO, "LISTEN {0}", CHANNEL);
                if (missed) {
                    changes.changed("resync");
                }
                backoff = Duration.ofMillis(500);
                deliver(connection.unwrap(PGConnection.class));
            } catch (SQLException e) {
                if (stopped.getCount() == 0) {
                    return;
                }
                missed = true;
                LOG.log(System.Logger.Level.WARNING, "LISTEN {0} lost, reconnecting in {1} ms: {2}", CHANNEL,
                        backoff.toMillis(), e.getMessage());
            } finally {
                listening = null;
            }
            try {
                if (stopped.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /** Resumes the long-polls for each notification until the connection fails or {@link #close}. */
    private void deliver(PGConnection connection) throws SQLException {
        while (stopped.getCount() > 0) {
            PGNotification[] notifications = connection.getNotifications(POLL_MILLIS);
            if (notifications != null) {
                for (PGNotification notification : notifications) {
                    changes.changed(notification.getParameter());
                }
            }
        }
    }

    /** Stops listening (within a poll interval) and closes the listening connection. */
    @Override
    public void close() throws InterruptedException {
        stopped.countDown();
        listener.join(POLL_MILLIS * 4L);
        Connection connection = listening;
        if (listener.isAlive() && connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing a connection that is in use: the listener ends on the failure
            }
        }
    }
}
