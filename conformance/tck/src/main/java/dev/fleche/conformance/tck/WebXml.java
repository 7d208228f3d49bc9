package dev.fleche.conformance.tck;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import java.io.InputStream;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of a {@code WEB-INF/web.xml} that decide how a JAX-RS application is served: its servlets (name,
 * class, init parameters) and their URL patterns. Security constraints, login configuration, session settings and
 * everything else are ignored: nothing here is a servlet container.
 *
 * @param servlets the {@code <servlet>} elements, in document order
 */
record WebXml(List<ServletDef> servlets) {

    /**
     * One {@code <servlet>} with its mappings.
     *
     * @param name         {@code servlet-name}
     * @param className    {@code servlet-class}, or null (a servlet named after an {@code Application} subclass)
     * @param initParams   {@code init-param}s in document order
     * @param urlPatterns  the {@code url-pattern}s of the {@code servlet-mapping}s naming this servlet
     */
    record ServletDef(String name, String className, Map<String, String> initParams, List<String> urlPatterns) {
    }

    static final WebXml NONE = new WebXml(List.of());

    static WebXml parse(InputStream in) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setExpandEntityReferences(false);
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setEntityResolver((publicId, systemId) -> new InputSource(new StringReader("")));
        Document document = builder.parse(in);
        Element root = document.getDocumentElement();

        Map<String, List<String>> patterns = new LinkedHashMap<>();
        for (Element mapping : children(root, "servlet-mapping")) {
            String servlet = text(mapping, "servlet-name");
            for (Element pattern : children(mapping, "url-pattern")) {
                patterns.computeIfAbsent(servlet, k -> new ArrayList<>()).add(pattern.getTextContent().trim());
            }
        }
        List<ServletDef> servlets = new ArrayList<>();
        for (Element servlet : children(root, "servlet")) {
            String name = text(servlet, "servlet-name");
            Map<String, String> params = new LinkedHashMap<>();
            for (Element param : children(servlet, "init-param")) {
                params.put(text(param, "param-name"), text(param, "param-value"));
            }
            servlets.add(new ServletDef(name, text(servlet, "servlet-class"), params,
                    List.copyOf(patterns.getOrDefault(name, List.of()))));
        }
        return new WebXml(List.copyOf(servlets));
    }

    private static List<Element> children(Element parent, String localName) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && localName.equals(localName(element))) {
                found.add(element);
            }
        }
        return found;
    }

    private static String localName(Element element) {
        return element.getLocalName() != null ? element.getLocalName() : element.getTagName();
    }

    private static String text(Element parent, String localName) {
        List<Element> found = children(parent, localName);
        return found.isEmpty() ? null : found.get(0).getTextContent().trim();
    }
}
