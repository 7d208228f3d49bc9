package dev.fleche.examples.service;

import dev.fleche.examples.todo.TodoStore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The schema, as numbered steps applied in order on start: {@code schema_version} holds one row per step applied.
 * Each replica runs this on start; on PostgreSQL the steps run in one transaction under an advisory lock, so
 * replicas starting together apply each step once and a failed step leaves nothing half-done. A step, once
 * shipped, is never edited: a change is a new step.
 *
 * <p>Our own thirty lines rather than Flyway: one table and a step list need no dependency (Flyway's core is
 * 1 MB more in the image, and its PostgreSQL support is a separate module), and the SQL stays in the source.
 */
final class Migrations {
    /** The steps; step {@code n} is {@code STEPS.get(n - 1)}. */
    static final List<String> STEPS = List.of(
            // 1: the to-dos (IF NOT EXISTS: an H2 file made by the todo example before there was a version table)
            TodoStore.CREATE_TABLE);
    /** pg_advisory_xact_lock's key: "todo" in ASCII. */
    private static final long LOCK = 0x746f646fL;

    private Migrations() {
    }

    /** Applies the steps {@code connection}'s database lacks; returns the schema version now. */
    static int migrate(Connection connection, boolean postgres) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            if (postgres) {
                statement.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
            }
            statement.execute("CREATE TABLE IF NOT EXISTS schema_version (version INT PRIMARY KEY, "
                    + "applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)");
            int current = current(statement);
            for (int step = current + 1; step <= STEPS.size(); step++) {
                statement.execute(STEPS.get(step - 1));
                try (PreparedStatement applied = connection.prepareStatement(
                        "INSERT INTO schema_version (version) VALUES (?)")) {
                    applied.setInt(1, step);
                    applied.executeUpdate();
                }
            }
            connection.commit();
            return STEPS.size();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static int current(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SELECT COALESCE(MAX(version), 0) FROM schema_version")) {
            rs.next();
            int current = rs.getInt(1);
            if (current > STEPS.size()) {
                throw new SQLException("the database's schema is version " + current + ", newer than this "
                        + "service's " + STEPS.size() + ": run the newer release");
            }
            return current;
        }
    }
}
