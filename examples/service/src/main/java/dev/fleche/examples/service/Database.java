package dev.fleche.examples.service;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.fleche.examples.todo.TodoStore;
import org.h2.jdbcx.JdbcConnectionPool;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The service's database, chosen by {@code DATABASE_URL}: the pool, the schema ({@link Migrations}) and how a
 * write reaches the {@code /changes} long-polls ({@link #publish}).
 *
 * <table>
 *   <caption>The two databases</caption>
 *   <tr><th></th><th>H2 ({@code jdbc:h2:}, default)</th><th>PostgreSQL ({@code jdbc:postgresql:})</th></tr>
 *   <tr><td>pool</td><td>H2's {@code JdbcConnectionPool}</td><td>HikariCP, {@value #POOL_SIZE} connections,
 *       2 s to get one</td></tr>
 *   <tr><td>schema</td><td>migrated before {@code open} returns</td><td>migrated by a background thread that
 *       retries until the database answers: the process starts and stays live through an outage, readiness
 *       waits</td></tr>
 *   <tr><td>changes</td><td>this process's long-polls</td><td>{@code NOTIFY todo_changes}: every replica's
 *       long-polls ({@link PgChangeFeed})</td></tr>
 * </table>
 */
final class Database implements AutoCloseable {
    /** Connections per replica on PostgreSQL (plus one for LISTEN): 10 replicas stay under the default 100. */
    static final int POOL_SIZE = 5;
    private static final System.Logger LOG = System.getLogger(Database.class.getName());

    private final TodoStore store;
    private final Consumer<String> publish;
    private final Schema schema;
    private final AutoCloseable feed;

    private Database(TodoStore store, Consumer<String> publish, Schema schema, AutoCloseable feed) {
        this.store = store;
        this.publish = publish;
        this.schema = schema;
        this.feed = feed;
    }

    /** The database at {@code jdbcUrl}; its changes go to {@code changes} (and, on PostgreSQL, every replica's). */
    static Database open(String jdbcUrl, Changes changes) {
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return postgres(jdbcUrl, changes);
        }
        JdbcConnectionPool pool = JdbcConnectionPool.create(jdbcUrl, "sa", "");
        Schema schema = new Schema(pool, false);
        schema.migrateOnce();
        return new Database(new TodoStore(pool, pool::dispose), changes::changed, schema, () -> { });
    }

    private static Database postgres(String jdbcUrl, Changes changes) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("todo");
        config.setMaximumPoolSize(POOL_SIZE);
        config.setConnectionTimeout(2_000);
        config.setValidationTimeout(1_000);
        config.setInitializationFailTimeout(-1); // start without the database; readiness tells
        HikariDataSource pool = new HikariDataSource(config);
        Schema schema = new Schema(pool, true);
        PgChangeFeed feed = new PgChangeFeed(jdbcUrl, pool, changes);
        Thread migrating = new Thread(schema::migrateUntilDone, "todo-migrate");
        migrating.setDaemon(true);
        migrating.start();
        feed.start();
        return new Database(new TodoStore(pool, () -> { }), feed::publish, schema, () -> {
            schema.stop();
            migrating.join(TimeUnit.SECONDS.toMillis(2));
            feed.close();
            pool.close();
        });
    }

    TodoStore store() {
        return store;
    }

    /** Tells the long-polls (of every replica, on PostgreSQL) that {@code what} changed. */
    void publish(String what) {
        publish.accept(what);
    }

    /** Null when the schema is in place and the database answers within 2 s; else why not. */
    String notReady() {
        if (!schema.done()) {
            return "the schema is not migrated yet: " + schema.lastError();
        }
        try {
            return store.isReachable(2) ? null : "the database did not answer within 2 s";
        } catch (SQLException e) {
            return "the database did not answer: " + e.getMessage();
        }
    }

    @Override
    public void close() {
        try {
            feed.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "closing the change feed failed", e);
        }
        store.close();
    }

    /** The migration's state: done once, retried (PostgreSQL) until then. */
    private static final class Schema {
        private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
        private final DataSource pool;
        private final boolean postgres;
        private final CountDownLatch done = new CountDownLatch(1);
        private final CountDownLatch stopped = new CountDownLatch(1);
        private volatile String lastError = "not tried yet";

        Schema(DataSource pool, boolean postgres) {
            this.pool = pool;
            this.postgres = postgres;
        }

        /** H2: one try; a failure is the caller's (the process does not start). */
        void migrateOnce() {
            try (Connection connection = pool.getConnection()) {
                Migrations.migrate(connection, postgres);
                done.countDown();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot migrate the schema", e);
            }
        }

        /** PostgreSQL: tries until it succeeds or {@link #stop} (backoff 0.5 s doubling to 10 s). */
        void migrateUntilDone() {
            Duration backoff = Duration.ofMillis(500);
            while (stopped.getCount() > 0) {
                try (Connection connection = pool.getConnection()) {
                    int version = Migrations.migrate(connection, true);
                    done.countDown();
                    LOG.log(System.Logger.Level.INFO, "schema at version {0}", version);
                    return;
                } catch (SQLException e) {
                    lastError = e.getMessage();
                    LOG.log(System.Logger.Level.WARNING, "schema migration failed, retrying in {0} ms: {1}",
                            backoff.toMillis(), e.getMessage());
                }
                try {
                    if (stopped.await(backoff.toMillis(), TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }

        boolean done() {
            return done.getCount() == 0;
        }

        String lastError() {
            return lastError;
        }

        void stop() {
            stopped.countDown();
        }
    }
}
