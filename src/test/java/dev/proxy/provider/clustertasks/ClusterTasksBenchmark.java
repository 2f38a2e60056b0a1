package dev.proxy.provider.clustertasks;

import static dev.proxy.provider.clustertasks.EcsSeed.container;
import static org.assertj.core.api.Assertions.assertThat;

import dev.proxy.config.decode.CommandLineEntries;
import dev.proxy.config.decode.RecordDecoder;
import dev.proxy.config.install.InstallConfig;
import dev.proxy.testing.aws.MotoServer;
import dev.proxy.testing.aws.MotoServerExtension;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.ecs.model.NetworkMode;

/**
 * The {@code clusterTasks} refresh at scale, run by {@code src/bench/cluster.sh} (not part of {@code mvn verify}: the
 * name matches neither test pattern). Seeds one cluster with {@code -Dproxy.bench.tasks} tasks (default 1,000): 70 %
 * Fargate over 10 services, 25 % bridge tasks of 5 services on 20 EC2 instances, 5 % ECS Anywhere tasks on 5 managed
 * instances; then runs refreshes exactly as the provider does (the DI-built SDK client, fetch and build) and reports
 * the AWS calls of each refresh by operation (the emulator's counter) and its duration, in total and without the
 * time spent waiting on the emulator (the proxy's own work: bookkeeping, caches, building the configuration).
 */
@ExtendWith(MotoServerExtension.class)
class ClusterTasksBenchmark {

    private static final int POLLS = 11;

    @Test
    void refreshesAThousandTasks(MotoServer moto) throws IOException {
        int tasks = Integer.getInteger("proxy.bench.tasks", 1000);
        moto.reset();
        seed(moto, tasks);
        System.setProperty("aws.endpointUrl", moto.endpoint().toString());
        InstallConfig install = RecordDecoder.decode(InstallConfig.class, CommandLineEntries.fromFlags(List.of(
                "--providers.clusterTasks.clusters=bench", "--providers.clusterTasks.ecsAnywhere=true",
                "--providers.clusterTasks.region=us-east-1",
                "--providers.clusterTasks.accessKeyID=" + moto.env().get("AWS_ACCESS_KEY_ID"),
                "--providers.clusterTasks.secretAccessKey=" + moto.env().get("AWS_SECRET_ACCESS_KEY"))));
        List<Map<String, Long>> calls = new ArrayList<>();
        List<Double> millis = new ArrayList<>();
        List<Double> own = new ArrayList<>();
        List<Double> cpuMillis = new ArrayList<>();
        List<Double> motoMillis = new ArrayList<>();
        int routed = 0;
        try (ApplicationContext ctx = ApplicationContext.builder().deduceEnvironment(false).banner(false)
                .singletons(install).start()) {
            WaitClock waiting = new WaitClock();
            EcsApi real = ctx.getBean(EcsApi.class);
            // Time spent waiting on the emulator (with calls in flight), to tell it apart from the provider's own work.
            EcsApi timed = (EcsApi) Proxy.newProxyInstance(EcsApi.class.getClassLoader(), new Class<?>[] {EcsApi.class},
                    (proxy, method, args) -> {
                        waiting.enter();
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        } finally {
                            waiting.exit();
                        }
                    });
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean();
            TaskFetcher fetcher = new TaskFetcher(timed, install.providers().clusterTasks());
            TaskConfigBuilder builder = new TaskConfigBuilder(install.providers().clusterTasks());
            for (int poll = 0; poll < POLLS; poll++) {
                moto.resetCallCounts();
                waiting.reset();
                long cpu = os.getProcessCpuTime();
                double motoCpu = cpuSeconds(moto.pid().orElse("none"));
                long start = System.nanoTime();
                TaskConfigBuilder.Built built = builder.build(fetcher.fetch());
                millis.add((System.nanoTime() - start) / 1e6);
                own.add((System.nanoTime() - start - waiting.total()) / 1e6);
                cpuMillis.add((os.getProcessCpuTime() - cpu) / 1e6);
                motoMillis.add((cpuSeconds(moto.pid().orElse("none")) - motoCpu) * 1000);
                calls.add(moto.callCounts());
                routed = (int) built.explanations().stream().filter(Explanation::exposed).count();
            }
            fetcher.close();
        } finally {
            System.clearProperty("aws.endpointUrl");
        }
        String report = report(tasks, routed, calls, millis, own, cpuMillis, motoMillis);
        System.out.println(report);
        Path out = Path.of("target", "bench", "cluster.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);

        assertThat(routed).isEqualTo(tasks);
        for (Map<String, Long> steady : calls.subList(1, POLLS)) {
            assertThat(steady).doesNotContainKeys("ecs:DescribeTaskDefinition", "ecs:DescribeContainerInstances",
                    "ec2:DescribeInstances", "ssm:DescribeInstanceInformation");
        }
    }

    private static void seed(MotoServer moto, int tasks) {
        try (EcsSeed seed = new EcsSeed(moto)) {
            String cluster = seed.cluster("bench");
            int fargate = tasks * 70 / 100;
            int anywhere = tasks * 5 / 100;
            int bridge = tasks - fargate - anywhere;
            for (int s = 0; s < 10; s++) {
                String def = seed.fargateDefinition("bench-web-" + s, container("app", 8080));
                seed.runFargate(cluster, def, "service:bench-web-" + s, fargate / 10 + (s < fargate % 10 ? 1 : 0));
            }
            List<EcsSeed.Instance> ec2 = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ec2.add(seed.ec2Instance(cluster, "127.0.1." + (i + 1)));
            }
            List<String> bridgeDefs = new ArrayList<>();
            for (int s = 0; s < 5; s++) {
                bridgeDefs.add(seed.ec2Definition("bench-api-" + s, NetworkMode.BRIDGE, container("app", 80)));
            }
            for (int i = 0; i < bridge; i++) {
                seed.startTask(cluster, bridgeDefs.get(i % 5), ec2.get(i % 20), "service:bench-api-" + (i % 5));
            }
            List<EcsSeed.Instance> external = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                external.add(seed.anywhereInstance(cluster, String.format(Locale.ROOT, "mi-%017x", i + 1), "127.0.2." + (i + 1)));
            }
            String edge = seed.anywhereDefinition("bench-edge", container("app", 80));
            for (int i = 0; i < anywhere; i++) {
                seed.startTask(cluster, edge, external.get(i % 5), "service:bench-edge");
            }
        }
    }

    private static String report(int tasks, int routed, List<Map<String, Long>> calls, List<Double> millis,
                                 List<Double> own, List<Double> cpu, List<Double> motoCpu) {
        TreeSet<String> operations = new TreeSet<>();
        calls.forEach(c -> operations.addAll(c.keySet()));
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "clusterTasks refresh: %d tasks in one cluster, %d containers routed%n%n",
                tasks, routed));
        out.append(String.format(Locale.ROOT, "%-34s %12s %14s%n", "AWS calls per refresh", "first", "steady (max)"));
        for (String op : operations) {
            long steadyMax = calls.subList(1, calls.size()).stream().mapToLong(c -> c.getOrDefault(op, 0L)).max().orElse(0);
            out.append(String.format(Locale.ROOT, "%-34s %12d %14d%n", op, calls.get(0).getOrDefault(op, 0L), steadyMax));
        }
        out.append(String.format(Locale.ROOT, "%-34s %12.0f %14s%n", "refresh time (ms)", millis.get(0), steady(millis)));
        out.append(String.format(Locale.ROOT, "%-34s %12.0f %14s%n", "  of which the proxy's own (ms)", own.get(0), steady(own)));
        out.append(String.format(Locale.ROOT, "%-34s %12.0f %14s%n", "proxy JVM CPU per refresh (ms)", cpu.get(0), steady(cpu)));
        out.append(String.format(Locale.ROOT, "%-34s %12.0f %14s%n", "emulator CPU per refresh (ms)", motoCpu.get(0),
                steady(motoCpu)));
        out.append(String.format(Locale.ROOT, "%nrefresh times (ms): %s%nthe proxy's own (ms): %s%nJVM CPU (ms): %s%n"
                + "emulator CPU (ms): %s%n", rounded(millis), rounded(own), rounded(cpu), rounded(motoCpu)));
        return out.toString();
    }

    /**
     * CPU seconds (user + system, 10 ms ticks) of the emulator's process so far: moto serves from one Python process
     * whose threads share one interpreter lock, so its CPU per refresh is a floor under the refresh time that no
     * client-side concurrency removes, and a figure that load on the machine barely moves.
     */
    private static double cpuSeconds(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime (fields 14, 15)
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Wall time with at least one call in flight (calls overlap: their durations do not add up). */
    private static final class WaitClock {
        private int inFlight;
        private long since;
        private long total;

        synchronized void enter() {
            if (inFlight++ == 0) {
                since = System.nanoTime();
            }
        }

        synchronized void exit() {
            if (--inFlight == 0) {
                total += System.nanoTime() - since;
            }
        }

        synchronized void reset() {
            total = 0;
        }

        synchronized long total() {
            return total;
        }
    }

    /** Median and max of the steady refreshes (all but the first). */
    private static String steady(List<Double> values) {
        List<Double> steady = new ArrayList<>(values.subList(1, values.size()));
        steady.sort(null);
        return String.format(Locale.ROOT, "median %.0f, max %.0f", steady.get(steady.size() / 2), steady.get(steady.size() - 1));
    }

    private static List<String> rounded(List<Double> values) {
        return values.stream().map(m -> String.format(Locale.ROOT, "%.0f", m)).toList();
    }
}
