package kr.c4i.gateway.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP hop the test can cut: it forwards connections on a loopback port to a target port until {@link #sever()},
 * which closes every connection and the listening socket (new connections are refused), and {@link #restore()},
 * which listens again on the same port. The WAN link's broker connection runs through it, so cutting it is a WAN
 * outage as both gateways see one: connections reset, reconnects refused.
 */
final class TcpProxy implements AutoCloseable {

    private final int port;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;

    TcpProxy(int port, int targetPort) throws IOException {
        this.port = port;
        this.targetPort = targetPort;
        restore();
    }

    int port() {
        return port;
    }

    /** Listens again on the same port; connections made from now on are forwarded. */
    synchronized void restore() throws IOException {
        if (server != null && !server.isClosed()) {
            return;
        }
        ServerSocket listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = listening;
        Thread.ofVirtual().name("proxy-accept-" + port).start(() -> accept(listening));
    }

    /** Closes the listening socket and every forwarded connection: both ends see a reset, new connections fail. */
    synchronized void sever() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }

    private void accept(ServerSocket listening) {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket target;
                try {
                    target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                }
                catch (IOException refused) {
                    client.close();
                    continue;
                }
                synchronized (this) {
                    if (listening.isClosed()) {
                        client.close();
                        target.close();
                        return;
                    }
                    sockets.add(client);
                    sockets.add(target);
                }
                Thread.ofVirtual().start(() -> pipe(client, target));
                Thread.ofVirtual().start(() -> pipe(target, client));
            }
            catch (IOException closed) {
                // sever() closed the listening socket
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        }
        catch (SocketException closed) {
            // one side went away, or sever()
        }
        catch (IOException ex) {
            // as above
        }
        finally {
            close(from);
            close(to);
        }
    }

    private void close(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        }
        catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        sever();
    }
}
