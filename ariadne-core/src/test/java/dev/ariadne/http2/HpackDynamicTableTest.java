package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The dynamic table of RFC 7541 §4: entry sizes, FIFO eviction, resizing, and the ring that holds
 * the entries.
 */
class HpackDynamicTableTest {

	@Test
	void anEntryCostsItsOctetsPlus32AndTheNewestIsIndexOne() {
		HpackDynamicTable table = new HpackDynamicTable(4096);
		table.add(":authority", "www.example.com");
		table.add("cache-control", "no-cache");
		assertThat(table.size()).isEqualTo(57 + 53);
		assertThat(table.length()).isEqualTo(2);
		assertThat(entries(table)).containsExactly("cache-control: no-cache", ":authority: www.example.com");
	}

	@Test
	void evictsTheOldestEntriesUntilANewOneFits() {
		HpackDynamicTable table = new HpackDynamicTable(100);
		table.add("a", "1".repeat(30));
		table.add("b", "2".repeat(30));
		assertThat(entries(table)).containsExactly("b: " + "2".repeat(30));
		assertThat(table.size()).isEqualTo(63);
		table.add("c", "");
		assertThat(entries(table)).containsExactly("c: ", "b: " + "2".repeat(30));
		assertThat(table.size()).isEqualTo(96);
	}

	@Test
	void anEntryOfExactlyTheCapacityFitsAndEmptiesTheRest() {
		HpackDynamicTable table = new HpackDynamicTable(64);
		table.add("x", "y");
		table.add("n", "v".repeat(31));
		assertThat(entries(table)).containsExactly("n: " + "v".repeat(31));
		assertThat(table.size()).isEqualTo(64);
	}

	@Test
	void anEntryLargerThanTheTableEmptiesItAndIsNotAdded() {
		HpackDynamicTable table = new HpackDynamicTable(64);
		table.add("x", "y");
		table.add("n", "v".repeat(32));
		assertThat(table.length()).isZero();
		assertThat(table.size()).isZero();
	}

	@Test
	void shrinkingEvictsFromTheOldestAndGrowingKeepsEverything() {
		HpackDynamicTable table = new HpackDynamicTable(4096);
		for (int i = 0; i < 5; i++) {
			table.add("k" + i, "v");
		}
		table.capacity(3 * 36);
		assertThat(entries(table)).containsExactly("k4: v", "k3: v", "k2: v");
		table.capacity(4096);
		assertThat(entries(table)).containsExactly("k4: v", "k3: v", "k2: v");
		table.capacity(0);
		assertThat(table.length()).isZero();
		table.add("k", "v");
		assertThat(table.length()).isZero();
	}

	@Test
	void theRingWrapsAndGrowsWithoutLosingOrder() {
		HpackDynamicTable table = new HpackDynamicTable(10 * 35);
		List<String> expected = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			String name = "k" + (char) ('a' + i % 26);
			table.add(name, String.valueOf(i % 10));
			expected.add(0, name + ": " + i % 10);
			if (expected.size() > 10) {
				expected.remove(10);
			}
			assertThat(entries(table)).as("after %d insertions", i + 1).isEqualTo(expected);
			assertThat(table.size()).isEqualTo(35L * expected.size());
		}
	}

	@Test
	void findsAFieldThenANameThenNothing() {
		HpackDynamicTable table = new HpackDynamicTable(4096);
		table.add("a", "1");
		table.add("b", "2");
		table.add("a", "3");
		assertThat(table.find("a", "1")).isEqualTo(3);
		assertThat(table.find("a", "3")).isEqualTo(1);
		assertThat(table.find("a", "9")).isEqualTo(-1);
		assertThat(table.find("b", "9")).isEqualTo(-2);
		assertThat(table.find("c", "1")).isZero();
	}

	static List<String> entries(HpackDynamicTable table) {
		List<String> entries = new ArrayList<>();
		for (int index = 1; index <= table.length(); index++) {
			entries.add(table.name(index) + ": " + table.value(index));
		}
		return entries;
	}

}
