// A random bot in Java, run from its source (`java tests/JailBot.java`),
// for tests/t2020-jail-filter.sh: the JVM and its threads under the
// jail's filter. Its moves are chosen by a thread of an ExecutorService.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

public class JailBot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        String[] moves = new String[0];
        int n = 0;
        for (String line; (line = in.readLine()) != null;) {
            String[] w = line.trim().split("\\s+");
            if (w[0].equals("game")) {
                System.out.println("hello jailbot-java 1 moves");
            } else if (w[0].equals("moves")) {
                moves = java.util.Arrays.copyOfRange(w, 1, w.length);
            } else if (w[0].equals("go")) {
                final String[] m = moves;
                final int k = ++n;
                System.out.println("move " + pool.submit(() -> m[(k * 7919) % m.length]).get());
            } else if (w[0].equals("quit")) {
                break;
            }
            System.out.flush();
        }
        pool.shutdownNow();
    }
}
