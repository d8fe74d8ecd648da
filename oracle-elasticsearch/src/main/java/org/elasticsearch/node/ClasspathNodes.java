package org.elasticsearch.node;

import java.util.Collection;
import java.util.List;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.ClasspathPluginsService;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.plugins.PluginsService;

/**
 * Builds a {@link Node} whose plugins come from the class path. In Elasticsearch 8.15 the node constructor that
 * takes a {@code NodeConstruction}, {@code NodeConstruction.prepareConstruction} and {@code NodeServiceProvider}
 * are package-private, hence this class in {@code org.elasticsearch.node} (class path only, not a module).
 */
public final class ClasspathNodes {
    private ClasspathNodes() {
    }

    public static Node create(Environment environment, Collection<Class<? extends Plugin>> plugins) {
        List<Class<? extends Plugin>> pluginClasses = List.copyOf(plugins);
        NodeServiceProvider provider = new NodeServiceProvider() {
            @Override
            PluginsService newPluginService(Environment env, Settings settings) {
                return new ClasspathPluginsService(settings, pluginClasses);
            }
        };
        return new Node(NodeConstruction.prepareConstruction(environment, provider, true));
    }
}
