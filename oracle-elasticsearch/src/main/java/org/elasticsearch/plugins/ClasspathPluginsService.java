package org.elasticsearch.plugins;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.elasticsearch.Build;
import org.elasticsearch.action.admin.cluster.node.info.PluginsAndModules;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.jdk.ModuleQualifiedExportsService;

/**
 * A {@link PluginsService} whose plugins are classes on the class path (no modules or plugins directories, no
 * module layers). It has to live in {@code org.elasticsearch.plugins}: {@code LoadedPlugin}, {@code loadPlugin}
 * and {@code loadExtensions} are package-private in Elasticsearch 8.15.
 */
public final class ClasspathPluginsService extends PluginsService {
    private final List<LoadedPlugin> classpathPlugins;

    public ClasspathPluginsService(Settings settings, Collection<Class<? extends Plugin>> pluginClasses) {
        super(settings, null, null, null);
        List<LoadedPlugin> loaded = new ArrayList<>();
        for (Class<? extends Plugin> pluginClass : pluginClasses) {
            Plugin plugin = loadPlugin(pluginClass, settings, null);
            PluginDescriptor descriptor = new PluginDescriptor(pluginClass.getName(), "class path plugin", "NA",
                    Build.current().version(), Integer.toString(Runtime.version().feature()), pluginClass.getName(),
                    null, List.of(), false, false, false, false);
            loaded.add(new LoadedPlugin(descriptor, plugin, pluginClass.getClassLoader(), ModuleLayer.boot()));
        }
        loadExtensions(loaded);
        this.classpathPlugins = List.copyOf(loaded);
    }

    @Override
    protected List<LoadedPlugin> plugins() {
        return classpathPlugins;
    }

    @Override
    public PluginsAndModules info() {
        return new PluginsAndModules(List.of(), classpathPlugins.stream().map(LoadedPlugin::descriptor).toList());
    }

    @Override
    protected void addServerExportsService(Map<String, List<ModuleQualifiedExportsService>> exportsServices) {
        // the server is in the unnamed module here: there is nothing to export to plugin layers
    }

    @Override
    public <T> List<? extends T> loadServiceProviders(Class<T> service) {
        List<T> providers = new ArrayList<>();
        ServiceLoader.load(service, ClasspathPluginsService.class.getClassLoader()).forEach(providers::add);
        return providers;
    }
}
