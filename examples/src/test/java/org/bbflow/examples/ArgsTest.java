package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ArgsTest {

    @Test
    void parsesPositionalWordsValuesAndFlags() {
        Args a = Args.parse("demo", "--items", "1_000", "extra", "--work=50", "--no-progress");
        assertEquals(List.of("demo", "extra"), a.positional());
        assertEquals(1000, a.intOption("items", 7));
        assertEquals(50, a.intOption("work", 7));
        assertEquals(7, a.intOption("width", 7));
        assertTrue(a.flag("no-progress"));
        assertFalse(a.flag("quiet"));
        assertEquals(List.of("extra"), a.shift().positional());
        assertEquals(1000, a.shift().intOption("items", 7));
    }

    @Test
    void sizesTakeBinarySuffixes() {
        Args a = Args.parse("--memory", "16m", "--chunk", "64k", "--size", "1g", "--raw", "4096");
        assertEquals(16L << 20, a.sizeOption("memory", 0));
        assertEquals(64L << 10, a.sizeOption("chunk", 0));
        assertEquals(1L << 30, a.sizeOption("size", 0));
        assertEquals(4096, a.sizeOption("raw", 0));
    }

    @Test
    void malformedValuesAndUnknownOptionsNameTheOption() {
        Args a = Args.parse("--items", "lots", "--itmes", "3");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> a.intOption("items", 1));
        assertTrue(bad.getMessage().contains("--items"), bad.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> a.rejectUnknown("demo", Set.of("items")));
        assertTrue(unknown.getMessage().contains("--itmes"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Args.parse("--size", "12q").sizeOption("size", 0));
        assertThrows(IllegalArgumentException.class, () -> Args.parse("--items").intOption("items", 0));
        // a flag followed by a word takes it as its value, which flag() refuses clearly
        IllegalArgumentException flag = assertThrows(IllegalArgumentException.class,
                () -> Args.parse("--no-progress", "extra").flag("no-progress"));
        assertTrue(flag.getMessage().contains("extra"), flag.getMessage());
    }
}
