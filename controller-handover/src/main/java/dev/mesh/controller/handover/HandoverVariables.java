package dev.mesh.controller.handover;

import dev.mesh.controller.core.settings.Variables;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The handover's timings as {@code serve} is given them, each optional ({@link HandoverSettings#NAMES}):
 * {@code MESH_HANDOVER_<NAME>} in the environment, {@code --handover name=value} over it, the defaults under both.
 * Stateless.
 */
public final class HandoverVariables {

    /** The prefix of the handover's variables: {@code MESH_HANDOVER_LEASE} for the setting {@code lease}. */
    private static final String PREFIX = "MESH_HANDOVER_";

    private HandoverVariables() {
    }

    /** @return the variable of a setting: {@code lease-renewal} → {@code MESH_HANDOVER_LEASE_RENEWAL} */
    public static String variable(String name) {
        return PREFIX + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /**
     * Reads the timings. A variable or an option of no such name is a problem (a typo would otherwise run the
     * default silently), and so is a pair that breaks a rule between them ({@link HandoverSettings#problems}),
     * named as it was set; each problem is added to {@code variables}.
     *
     * @param variables the environment being read
     * @param env the same environment, for the names it holds
     * @param options the {@code --handover NAME=VALUE} options given
     * @return the timings; the defaults where a value had a problem
     */
    public static HandoverSettings read(Variables variables, Map<String, String> env, Map<String, String> options) {
        HandoverSettings settings = HandoverSettings.DEFAULTS;
        for (String given : new TreeSet<>(env.keySet())) {
            if (given.startsWith(PREFIX) && HandoverSettings.NAMES.stream().noneMatch(name -> variable(name)
                    .equals(given))) {
                variables.problem(given + ": no handover setting has this name; they are "
                        + HandoverSettings.NAMES.stream().map(HandoverVariables::variable).toList());
            }
        }
        options.keySet().stream().filter(name -> !HandoverSettings.NAMES.contains(name)).sorted()
                .forEach(name -> variables.problem("--handover " + name + ": no handover setting has this name; "
                        + "they are " + String.join(", ", HandoverSettings.NAMES)));
        boolean malformed = false;
        for (String name : HandoverSettings.NAMES) {
            String given = options.containsKey(name) ? options.get(name) : variables.value(variable(name));
            if (given == null) {
                continue;
            }
            try {
                settings = settings.with(name, given.strip());
            } catch (IllegalArgumentException e) {
                malformed = true;
                variables.problem(where(name, options) + "=" + given + ": " + e.getMessage());
            }
        }
        if (!malformed) {
            settings.problems(name -> where(name, options)).forEach(variables::problem);
        }
        return settings;
    }

    private static String where(String name, Map<String, String> options) {
        return options.containsKey(name) ? "--handover " + name : variable(name);
    }
}
