package kr.c4i.gateway.bridge.support;

import java.io.IOException;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;

import com.zaxxer.hikari.HikariDataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The whole bridge's test node: its own database, closed with the context, and a recording transport, so no broker
 * is needed. Imported by the tests that start the application; not a {@code @Configuration}, which the application's
 * component scan would pick up in every other test of this package tree.
 */
public class RecordingNode {

    @Bean(destroyMethod = "close")
    EmbeddedPostgres postgres() throws IOException {
        return EmbeddedPostgres.builder().start();
    }

    @Bean
    DataSource dataSource(EmbeddedPostgres postgres) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        pool.setMaximumPoolSize(4);
        return pool;
    }

    @Bean
    RecordingTransport transport() {
        return new RecordingTransport();
    }
}
