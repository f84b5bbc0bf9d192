package dev.taikai.enginehost.session;

import java.util.ArrayList;
import java.util.List;

/** Splits protocol lines at runs of spaces and tabs, without regular expressions (the driver's hot path). */
public final class Words {
    private Words() {}

    /** The first {@code max} words of {@code line}. */
    public static List<String> of(String line, int max) {
        List<String> words = new ArrayList<>();
        int length = line.length();
        int i = 0;
        while (i < length && words.size() < max) {
            while (i < length && isSpace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < length && !isSpace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                words.add(line.substring(start, i));
            }
        }
        return words;
    }

    private static boolean isSpace(char ch) {
        return ch == ' ' || ch == '\t';
    }
}
