package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents a user reads (README.md, {@code docs/*.md}, and the index and write-ups of
 * {@code bench-results/}) hold together: every relative link names a file that exists and, with a
 * {@code #fragment} into a Markdown file, a heading of that file; every {@code <!-- toc -->} list
 * equals its document's second-level headings, in order. (Their Java blocks are checked by
 * {@link ReadmeSnippetsTest}.)
 */
class DocsTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void relativeLinksAndAnchorsResolve() throws IOException {
        Path root = ReadmeSnippetsTest.projectRoot();
        List<String> problems = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path doc : checkedDocuments(root)) {
            List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
            problems.addAll(brokenLinks(root, doc, lines, anchors));
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " broken link(s):\n" + String.join("\n", problems));
        }
    }

    @Test
    void everyTableOfContentsListsItsHeadings() throws IOException {
        Path root = ReadmeSnippetsTest.projectRoot();
        int lists = 0;
        for (Path doc : checkedDocuments(root)) {
            List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
            int from = lines.indexOf("<!-- toc -->");
            if (from < 0) {
                continue;
            }
            lists++;
            int to = lines.indexOf("<!-- /toc -->");
            assertTrue(to > from, doc + ": <!-- toc --> without <!-- /toc -->");
            List<String> expected = new ArrayList<>();
            for (String title : headings(lines, 2)) {
                expected.add("- [" + title + "](#" + anchor(title) + ")");
            }
            assertEquals(expected, lines.subList(from + 1, to), root.relativize(doc)
                    + ": regenerate its table of contents (one line per '## ' heading)");
        }
        assertTrue(lists >= 8, "expected a table of contents in most guides, found " + lists);
    }

    @Test
    void everySubcommandIsInTheExamplesGuidesTable() throws IOException {
        List<String> guide = Files.readAllLines(ReadmeSnippetsTest.projectRoot().resolve("docs/examples.md"),
                StandardCharsets.UTF_8);
        Set<String> commands = Main.commandLine(Output.silent()).getSubcommands().keySet();
        assertTrue(commands.contains("launch"), commands.toString());
        for (String command : commands) {
            if (command.equals("help")) {
                continue;
            }
            assertTrue(guide.stream().anyMatch(l -> l.startsWith("| `" + command + "`") || l.startsWith("| `" + command + " ")),
                    "docs/examples.md's table of subcommands lacks " + command);
        }
    }

    @Test
    void aBrokenLinkOrAnchorIsReported() throws IOException {
        Path root = ReadmeSnippetsTest.projectRoot();
        Path doc = root.resolve("docs/core.md");
        List<String> lines = List.of("# T", "## Real heading", "see [a](#real-heading), [b](#no-such),",
                "[c](no-such-file.md), [d](bkd.md#use), [e](../README.md#nope), [f](https://example.org/x#y)",
                "```", "[g](inside-a-fence.md)", "```");
        List<String> problems = brokenLinks(root, doc, lines, new HashMap<>());
        assertEquals(3, problems.size(), String.join("\n", problems));
        assertTrue(problems.get(0).contains("#no-such"), problems.get(0));
        assertTrue(problems.get(1).contains("no-such-file.md"), problems.get(1));
        assertTrue(problems.get(2).contains("../README.md#nope"), problems.get(2));
    }

    @Test
    void anchorsFollowGitHubsRule() {
        assertEquals("io-and-inter-process-channels", anchor("I/O and inter-process channels"));
        assertEquals("the-simple-distributed-farm-worker-and-master",
                anchor("The simple distributed farm: `worker` and `master`"));
        assertEquals("the-benchmark-suite-bbflow-bench", anchor("The benchmark suite (`bbflow-bench`)"));
    }

    /** README.md, docs/*.md, bench-results/README.md and every bench-results/FOLDER/README.md. */
    static List<Path> checkedDocuments(Path root) throws IOException {
        List<Path> docs = new ArrayList<>(ReadmeSnippetsTest.documents(root));
        docs.add(root.resolve("bench-results/README.md"));
        try (Stream<Path> s = Files.list(root.resolve("bench-results"))) {
            s.map(d -> d.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(docs::add);
        }
        return docs;
    }

    static List<String> brokenLinks(Path root, Path doc, List<String> lines, Map<Path, Set<String>> anchors)
            throws IOException {
        List<String> problems = new ArrayList<>();
        String name = root.relativize(doc).toString();
        boolean fence = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                fence = !fence;
                continue;
            }
            if (fence) {
                continue;
            }
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String fragment = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                String where = name + " line " + (i + 1) + ": " + target;
                if (!resolved.startsWith(root) || !Files.exists(resolved)) {
                    problems.add(where + " (no such file)");
                } else if (fragment != null && resolved.toString().endsWith(".md")) {
                    Set<String> known = anchors.computeIfAbsent(resolved, p -> anchorsOf(p, p.equals(doc) ? lines : null));
                    if (!known.contains(fragment)) {
                        problems.add(where + " (no heading with that anchor)");
                    }
                }
            }
        }
        return problems;
    }

    private static Set<String> anchorsOf(Path file, List<String> lines) {
        try {
            List<String> text = lines != null ? lines : Files.readAllLines(file, StandardCharsets.UTF_8);
            return headings(text, 1).stream().map(DocsTest::anchor).collect(Collectors.toCollection(LinkedHashSet::new));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The titles of the headings of at least {@code minLevel} (exactly 2 when minLevel is 2), outside code fences. */
    static List<String> headings(List<String> lines, int minLevel) {
        List<String> titles = new ArrayList<>();
        boolean fence = false;
        for (String line : lines) {
            if (line.startsWith("```")) {
                fence = !fence;
            } else if (!fence && line.startsWith("#")) {
                int level = 0;
                while (level < line.length() && line.charAt(level) == '#') {
                    level++;
                }
                if (level < line.length() && line.charAt(level) == ' '
                        && (minLevel == 2 ? level == 2 : level >= minLevel)) {
                    titles.add(line.substring(level + 1).strip());
                }
            }
        }
        return titles;
    }

    /** GitHub's heading anchor: lower case, anything but letters, digits, '_', '-' and spaces dropped, spaces to '-'. */
    static String anchor(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
