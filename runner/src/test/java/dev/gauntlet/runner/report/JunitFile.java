package dev.gauntlet.runner.report;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JUnit XML file as a CI system's test reporter reads it, by the JDK's DOM parser (which refuses a file that is not
 * well-formed): the root's name and attributes, the suite's properties and output, and each test case.
 *
 * @param attributes the root's attributes: {@code name}, {@code tests}, {@code failures}, ...
 */
public record JunitFile(String root, Map<String, String> attributes, Map<String, String> properties, List<TestCase> testCases,
                        String out) {
    /**
     * One {@code <testcase>}.
     *
     * @param failure its failure's message, null when it has none ({@code skipped} likewise)
     * @param out     its {@code <system-out>}, empty when it has none
     */
    public record TestCase(String classname, String name, String failure, String failureText, String skipped, String out) {
    }

    public static JunitFile read(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        Document document = factory.newDocumentBuilder().parse(file.toFile());
        Element root = document.getDocumentElement();
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < root.getAttributes().getLength(); i++) {
            Node attribute = root.getAttributes().item(i);
            attributes.put(attribute.getNodeName(), attribute.getNodeValue());
        }
        Map<String, String> properties = new LinkedHashMap<>();
        for (Element property : elements(root.getElementsByTagName("property"))) {
            properties.put(property.getAttribute("name"), property.getAttribute("value"));
        }
        List<TestCase> testCases = new ArrayList<>();
        for (Element testCase : elements(root.getElementsByTagName("testcase"))) {
            Element failure = child(testCase, "failure");
            Element skipped = child(testCase, "skipped");
            Element out = child(testCase, "system-out");
            testCases.add(new TestCase(testCase.getAttribute("classname"), testCase.getAttribute("name"),
                    failure == null ? null : failure.getAttribute("message"), failure == null ? null : failure.getTextContent(),
                    skipped == null ? null : skipped.getAttribute("message"), out == null ? "" : out.getTextContent()));
        }
        Element out = child(root, "system-out");
        return new JunitFile(root.getTagName(), attributes, properties, List.copyOf(testCases), out == null ? "" : out.getTextContent());
    }

    public List<TestCase> failed() {
        return testCases.stream().filter(c -> c.failure() != null).toList();
    }

    public List<TestCase> skipped() {
        return testCases.stream().filter(c -> c.skipped() != null).toList();
    }

    /** The test case named so, of the target × scenario {@code classname}. */
    public TestCase testCase(String classname, String name) {
        return testCases.stream().filter(c -> c.classname().equals(classname) && c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no test case " + classname + " / " + name + " in " + testCases));
    }

    private static List<Element> elements(NodeList nodes) {
        List<Element> elements = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            elements.add((Element) nodes.item(i));
        }
        return elements;
    }

    private static Element child(Element parent, String tag) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(tag)) {
                return element;
            }
        }
        return null;
    }
}
