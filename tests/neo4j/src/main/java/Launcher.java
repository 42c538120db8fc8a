import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.configuration.ssl.ClientAuth;
import org.neo4j.configuration.ssl.SslPolicyConfig;
import org.neo4j.configuration.ssl.SslPolicyScope;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * Starts Neo4j's embedded test server with Bolt on a free port of 127.0.0.1
 * (auth disabled), prints one line {@code BOLT bolt://127.0.0.1:PORT}, and
 * runs until it is killed, its standard input closes (with --stdin), or the
 * process given by --watch-pid exits, so a crashed CI script never leaves a
 * server behind.
 *
 * <p>With {@code --tls DIR} a second server runs in the same process, as a
 * team's would: Bolt over TLS only (the {@code private.key} and
 * {@code public.crt} in DIR, a self-signed certificate for localhost and 127.0.0.1), auth
 * enabled, and one login per user ({@code alice}/{@code alice-password},
 * {@code bob}/{@code bob-password}); it prints {@code BOLT_TLS bolt+s://127.0.0.1:PORT}.
 *
 * <p>Example: {@code java -cp "target/classes:$(cat target/classpath.txt)" Launcher --watch-pid $$}
 */
public final class Launcher {
  public static void main(String[] args) throws Exception {
    boolean untilStdinCloses = false;
    long watchPid = -1;
    Path tls = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--stdin" -> untilStdinCloses = true;
        case "--watch-pid" -> watchPid = Long.parseLong(args[++i]);
        case "--tls" -> tls = Path.of(args[++i]);
        default -> {
          System.err.println("usage: Launcher [--stdin] [--watch-pid PID] [--tls DIR]");
          System.exit(2);
        }
      }
    }
    Path dir = Files.createTempDirectory("rgraph-neo4j-");
    int port = freePort();
    Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(dir)
        .withDisabledServer()
        .withConfig(BoltConnector.enabled, true)
        .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
        .withConfig(HttpConnector.enabled, false)
        .withConfig(GraphDatabaseSettings.auth_enabled, false)
        .withConfig(GraphDatabaseSettings.pagecache_memory, 128L * 1024 * 1024)
        .build();
    Runtime.getRuntime().addShutdownHook(new Thread(neo4j::close));
    System.out.println("BOLT bolt://127.0.0.1:" + port);
    if (tls != null) {
      int tlsPort = freePort();
      Neo4j secure = tlsServer(tls, tlsPort);
      Runtime.getRuntime().addShutdownHook(new Thread(secure::close));
      System.out.println("BOLT_TLS bolt+s://127.0.0.1:" + tlsPort);
    }
    System.out.flush();

    if (untilStdinCloses) {
      InputStream in = System.in;
      while (in.read() != -1) {
        // Input is ignored: only its end matters.
      }
      System.exit(0);
    }
    Optional<ProcessHandle> watched = watchPid > 0 ? ProcessHandle.of(watchPid) : Optional.empty();
    while (true) {
      Thread.sleep(1000);
      if (watchPid > 0 && watched.map(p -> !p.isAlive()).orElse(true)) System.exit(0);
    }
  }

  /** The TLS-only, auth-enabled server with a login per user (see the class comment). */
  private static Neo4j tlsServer(Path certificates, int port) throws Exception {
    SslPolicyConfig bolt = SslPolicyConfig.forScope(SslPolicyScope.BOLT);
    Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(Files.createTempDirectory("rgraph-neo4j-tls-"))
        .withDisabledServer()
        .withConfig(BoltConnector.enabled, true)
        .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
        .withConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.REQUIRED)
        .withConfig(bolt.enabled, true)
        .withConfig(bolt.base_directory, certificates)
        .withConfig(bolt.client_auth, ClientAuth.NONE)
        .withConfig(HttpConnector.enabled, false)
        .withConfig(GraphDatabaseSettings.auth_enabled, true)
        .withConfig(GraphDatabaseSettings.pagecache_memory, 64L * 1024 * 1024)
        .build();
    for (String user : new String[] {"alice", "bob"}) {
      neo4j.databaseManagementService().database("system").executeTransactionally(
          "CREATE USER " + user + " SET PASSWORD '" + user + "-password' CHANGE NOT REQUIRED");
    }
    return neo4j;
  }

  /** A port nobody listens on now; Neo4j binds it a moment later. */
  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }
}
