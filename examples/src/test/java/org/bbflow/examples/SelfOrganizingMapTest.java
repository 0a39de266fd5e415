package org.bbflow.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.bbflow.examples.som.SelfOrganizingMap;
import org.bbflow.examples.som.SelfOrganizingMap.Options;
import org.bbflow.examples.som.SelfOrganizingMap.Result;
import org.bbflow.examples.som.SelfOrganizingMap.Trained;
import org.bbflow.examples.som.SomStrip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SelfOrganizingMapTest {

    @Test
    void parallelMapsEqualTheSequentialMapBitForBit() {
        // 24 rows over up to 4 strips of 6 rows with radius 3: many learning steps cross strips
        Options o = new Options(24, 16, 3, 600, 3, 0.5, 4, 11, false);
        Result r = SelfOrganizingMap.run(o);
        assertEquals(4, r.parallel().size());
        for (int i = 0; i < 4; i++) {
            Trained p = r.parallel().get(i);
            assertArrayEquals(r.sequential().winners(), p.winners(), "winners with " + (i + 1) + " strips");
            assertArrayEquals(r.sequential().weights(), p.weights(), "map with " + (i + 1) + " strips");
        }
        assertEquals(0, r.parallel().get(0).neighbourSteps());
        for (int i = 1; i < 4; i++) {
            assertTrue(r.parallel().get(i).neighbourSteps() > 0, "no neighbour exchange with " + (i + 1) + " strips");
        }
        assertTrue(r.allEqual());
    }

    @Test
    void trainingChangesTheMapAndDifferentSeedsGiveDifferentMaps() {
        Options a = new Options(12, 12, 3, 200, 2, 0.5, 2, 1, false);
        Options b = new Options(12, 12, 3, 200, 2, 0.5, 2, 2, false);
        Result ra = SelfOrganizingMap.run(a);
        Result rb = SelfOrganizingMap.run(b);
        assertTrue(ra.allEqual() && rb.allEqual());
        assertFalse(Arrays.equals(ra.sequential().weights(), rb.sequential().weights()));
        double[] untrained = SomStrip.randomMap(12, 12, 3, 1).weights();
        assertFalse(Arrays.equals(untrained, ra.sequential().weights()));
    }

    @Test
    void stripsThinnerThanTheRadiusAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SelfOrganizingMap.run(new Options(8, 8, 3, 10, 3, 0.5, 4, 1, false)));
        assertTrue(e.getMessage().contains("radius"), e.getMessage());
    }

    @Test
    void stripsSliceAndJoinBackToTheSameMap() {
        SomStrip map = SomStrip.randomMap(10, 4, 2, 5);
        SomStrip joined = SomStrip.join(map.slice(0, 3), map.slice(3, 7), map.slice(7, 10));
        assertArrayEquals(map.weights(), joined.weights());
        assertEquals(map.bestMatch(new double[] {0.5, 0.5}), joined.bestMatch(new double[] {0.5, 0.5}));
    }
}
