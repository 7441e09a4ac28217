/**
 * `npx tsx bench/european-docs.ts [--dir /usr/share/debian-reference] [--json]`
 *
 * French, German and Spanish questions asked of the offline planner over real docs in those
 * languages: the Debian Reference as Debian's packages `debian-reference-fr`, `-de` and `-es`
 * install it (one HTML page per chapter and language, `ch02.fr.html`, DocBook's XHTML), and
 * English ones over the original (`debian-reference-en`) beside them. For each language, 15
 * questions (English: 20) written from its pages as a reader of that language asks them, each
 * with a string a right answer holds, and 3 (English: 4) it does not answer. The languages ask
 * different questions. A
 * case counts as right when the answer holds the string, as closest useful when the run abstained
 * and its closest passages hold it. A sanity check of languages written with spaces other than
 * English, not an eval set; without the docs it prints "skipped".
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { agenticRun } from '../src/agent/run.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { answerOutcome, type Outcome } from './expected-string.ts';

/** Where Debian's debian-reference packages put the HTML. */
const DEBIAN_REFERENCE = '/usr/share/debian-reference';

/** Per language (the pages' suffix), questions and the string a right answer holds (undefined: the docs do not answer it). */
const CASES: Record<string, Array<[question: string, holds: string | undefined]>> = {
  en: [
    ["How can I list only the packages I installed by hand, not the ones pulled in automatically as dependencies?", "apt-mark showmanual"],
    ["Which command tells me who actually uploaded a given Debian source package?", "who-uploads"],
    ["Where can I look to see a history of what dpkg installed, upgraded or removed on my system?", "/var/log/dpkg.log"],
    ["How do I view the journal messages of one particular systemd unit since the last boot?", "journalctl -b -u $unit"],
    ["Which file should I edit to change the machine's hostname permanently so it is set at boot?", "/etc/hostname"],
    ["Which file can I create to temporarily stop ordinary users from logging in?", "/etc/nologin"],
    ["How do I give a network interface a static IP address with systemd-networkd, without any GUI tool?", "/etc/systemd/network/static.network"],
    ["What is the iproute2 replacement for the old arp command to look at the ARP cache?", "ip neigh"],
    ["How can I avoid typing my remote login name every time I ssh to a host where my username is different?", "~/.ssh/config"],
    ["Which file tells me which port numbers are used by which network services?", "/etc/services"],
    ["How do I run a graphical X program on a remote machine and have its window show up on my local screen securely?", "ssh -X"],
    ["Which file stores the keyboard layout settings used by both the Linux console and X?", "/etc/default/keyboard"],
    ["Which file sets the system-wide default locale on Debian?", "/etc/default/locale"],
    ["How can I find out which process has a particular file open?", "fuser"],
    ["How do I make an ISO9660 CD image file from a directory tree?", "genisoimage"],
    ["How can I get back commits from a git branch that I deleted by mistake?", "git reflog"],
    ["What is the largest single file I can put on a FAT-formatted USB stick?", "4GiB - 1 byte"],
    ["How do I convert a text file with Windows CR-LF line endings to Unix line endings?", "fromdos"],
    ["How do I find out which shared libraries a program depends on?", "ldd"],
    ["How can I save gdb's output to a log file while debugging a program?", "set logging on"],
    ["How do I set up a WireGuard VPN tunnel with wg-quick on Debian?", undefined],
    ["How do I enable compressed swap in RAM using zram on Debian?", undefined],
    ["How do I get a free TLS certificate from Let's Encrypt using certbot?", undefined],
    ["How do I enroll a Machine Owner Key with mokutil so my own kernel modules load under UEFI Secure Boot?", undefined],
  ],
  fr: [
    ["Mon terminal affiche des caractères illisibles après un cat sur un fichier binaire, comment le remettre en état ?", "reset"],
    ["Que faut-il lancer avant de pouvoir utiliser apt-file pour chercher quel paquet contient un fichier ?", "apt-file update"],
    ["Pendant une mise à niveau vers une nouvelle version de Debian, comment empêcher aptitude de supprimer un paquet installé automatiquement dont j'ai besoin ?", "unmarkauto"],
    ["Quelle commande affiche la liste des modules du noyau actuellement chargés ?", "lsmod"],
    ["Comment obtenir un shell root pendant la phase initramfs du démarrage, avant que le vrai système de fichiers racine soit monté ?", "break=init"],
    ["Comment restreindre l'utilisation de la commande su aux seuls membres du groupe root ?", "pam_wheel.so"],
    ["Je n'arrive pas à me connecter à distance à une Debian récente : quelle ligne de /etc/hosts.deny faut-il commenter ?", "ALL: PARANOID"],
    ["Quel fichier définit l'ordre dans lequel les noms d'hôtes sont résolus (fichier hosts puis DNS) ?", "/etc/nsswitch.conf"],
    ["Quelle commande permet de déterminer automatiquement le MTU du chemin vers un hôte distant ?", "tracepath"],
    ["Ma clé privée SSH n'est protégée par aucune phrase de passe, comment en ajouter une ?", "ssh-keygen -p"],
    ["Comment changer le jeu de caractères utilisé par Samba pour les vieux clients DOS et Windows 9x ?", "dos charset"],
    ["Comment activer le démon smartd pour surveiller l'état SMART de mes disques durs ?", "start_smartd=yes"],
    ["Comment éviter que plusieurs processus écrivent en même temps dans le même fichier ?", "flock"],
    ["Comment savoir quels encodages de caractères iconv est capable de convertir ?", "iconv -l"],
    ["Comment vérifier qu'un script shell ne contient pas de bashismes et reste portable entre les shells POSIX ?", "checkbashisms"],
    ["Comment configurer un tunnel VPN WireGuard entre deux machines Debian ?", undefined],
    ["Comment déployer un cluster Kubernetes sur des serveurs Debian ?", undefined],
    ["Comment activer le Secure Boot UEFI et signer mes propres modules du noyau ?", undefined],
  ],
  de: [
    ["Wie kann ich Kernel-Parameter im laufenden Betrieb ändern?", "sysctl"],
    ["APT meldet \"GPG error: ... BADSIG ...\" – was kann ich dagegen tun?", "/var/lib/apt/*"],
    ["Wie kann ich mir anzeigen lassen, welche Pin-Priorität ein Paket aus mehreren Archivquellen hat?", "apt-cache policy"],
    ["In welcher Datei werden verschlüsselte Dateisysteme für den Systemstart konfiguriert?", "/etc/crypttab"],
    ["Wie kann ich strengere Regeln für die Wahl von Passwörtern erzwingen?", "libpam-cracklib"],
    ["Welcher Gruppe muss ein Benutzer angehören, damit PolicyKit ihm administrative Aktionen aus GUI-Anwendungen erlaubt?", "sudo-Gruppe"],
    ["Wie sichere ich meine netfilter-Firewallregeln und stelle sie beim Booten wieder her?", "iptables-save"],
    ["Nach Wartungsarbeiten am Server funktioniert meine SSH-Verbindung plötzlich nicht mehr, weil sich der Host-Schlüssel geändert hat. Wie behebe ich das?", "~/.ssh/known_hosts"],
    ["Unter welcher Adresse erreiche ich im Browser die Konfigurationsoberfläche von CUPS?", "http://localhost:631/"],
    ["Wie finde ich heraus, ob eine grafische Anwendung Wayland oder das X-Protokoll verwendet?", "xeyes"],
    ["Wie lege ich eine Reihenfolge mehrerer bevorzugter Sprachen für übersetzte Programmmeldungen fest?", "$LANGUAGE"],
    ["Mit welchem Befehl sehe ich die fehlgeschlagenen Anmeldeversuche am System?", "lastb"],
    ["Wie kann ich die Alt-SysRq-Funktionen nutzen, wenn ich nur per SSH mit dem Rechner verbunden bin?", "/proc/sysrq-trigger"],
    ["Wo lege ich meinen Namen und meine E-Mail-Adresse für Git global fest?", "~/.gitconfig"],
    ["Auf welche Shell verweist /bin/sh in Debian?", "dash"],
    ["Wie automatisiere ich die Konfiguration mehrerer Debian-Server mit Ansible?", undefined],
    ["Wie richte ich die Kerberos-Authentifizierung für Benutzeranmeldungen ein?", undefined],
    ["Wie betreibe ich rootlose Container mit Podman?", undefined],
  ],
  es: [
    ["Tengo un escritorio gráfico instalado, ¿cómo paso a una consola de texto para iniciar sesión?", "Ctrl-Alt-F3"],
    ["¿Con qué orden puede el administrador crear nuevas cuentas de usuario?", "adduser"],
    ["¿En qué directorio guarda APT los paquetes que descarga?", "/var/cache/apt/archives"],
    ["Tengo instalados vim y nvi, ¿cómo hago que la orden vi ejecute vim?", "update-alternatives"],
    ["¿Cómo evito que un módulo del núcleo se cargue automáticamente?", "blacklist"],
    ["Si conozco la contraseña de root, ¿cómo ejecuto una sola orden como superusuario desde mi cuenta normal sin usar sudo?", "su -c"],
    ["¿A qué grupo debe pertenecer un usuario de escritorio para poder configurar la red desde la interfaz gráfica?", "netdev"],
    ["¿En qué archivo se define el nombre de dominio que usan los programas de correo del sistema?", "/etc/mailname"],
    ["¿Qué paquete hay que instalar para poder imprimir con la orden lpr en CUPS?", "cups-bsd"],
    ["¿Cómo instalo las fuentes de Microsoft como Arial o Times New Roman?", "ttf-mscorefonts-installer"],
    ["¿Qué codificación usa mount por defecto para un sistema de archivos vfat si no se le dan opciones?", "CP437"],
    ["¿Cómo puedo recuperar archivos borrados en un sistema de archivos ext2?", "debugfs"],
    ["¿Qué herramienta sirve para crear y convertir imágenes de disco de máquinas virtuales QEMU?", "qemu-img"],
    ["¿Qué herramienta de línea de órdenes permite manipular documentos PDF?", "pdftk"],
    ["En un script de shell, ¿qué debo usar en lugar de echo si necesito imprimir secuencias de escape?", "printf"],
    ["¿Cómo configuro un servidor web Nginx con varios hosts virtuales?", undefined],
    ["¿Cómo obtengo un certificado TLS gratuito de Let's Encrypt con certbot?", undefined],
    ["¿Cómo activo zram para tener swap comprimida en memoria?", undefined],
  ],
};

interface CaseResult {
  language: string;
  question: string;
  answerable: boolean;
  outcome: Outcome;
  answer: string;
}

/** Each language's questions asked over an index of that language's pages only. */
export async function measureEuropeanDocs(dir: string): Promise<CaseResult[]> {
  const { docs } = await loadCorpus(dir);
  const results: CaseResult[] = [];
  for (const [language, cases] of Object.entries(CASES)) {
    const index = createSqliteIndex({ path: ':memory:' });
    try {
      await index.ingest(docs.filter((doc) => doc.sourcePath.endsWith(`.${language}.html`)));
      for (const [question, holds] of cases) {
        const { answer } = await agenticRun(question, { model: createOfflineModel(), index });
        const outcome = answerOutcome(answer, holds);
        results.push({ language, question, answerable: holds !== undefined, outcome, answer: answer.text });
      }
    } finally {
      await index.close();
    }
  }
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dir: { type: 'string', default: DEBIAN_REFERENCE }, json: { type: 'boolean', default: false } } });
  const dir = values.dir;
  if (!existsSync(dir)) {
    process.stdout.write(`european docs: skipped: no Debian Reference at ${dir} (apt-get install debian-reference-en debian-reference-fr debian-reference-de debian-reference-es); pass --dir\n`);
    return;
  }
  const results = await measureEuropeanDocs(dir);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    return;
  }
  process.stdout.write(`| language | question | outcome | answer |\n|---|---|---|---|\n${results.map((result) => `| ${result.language} | ${result.question} | ${result.outcome} | ${result.answer.slice(0, 80).replace(/\|/g, '\\|')} |`).join('\n')}\n\n`);
  for (const language of Object.keys(CASES)) {
    const of = results.filter((result) => result.language === language);
    const count = (outcome: CaseResult['outcome'], answerable: boolean) => of.filter((result) => result.outcome === outcome && result.answerable === answerable).length;
    process.stdout.write(
      `${language}: answerable (${of.filter((result) => result.answerable).length}): right ${count('right', true)}, wrong ${count('wrong', true)}, closest useful ${count('closest useful', true)}, abstained ${count('abstained', true)}; unanswerable (${of.filter((result) => !result.answerable).length}): abstained ${count('abstained', false)}, answered ${count('wrong', false)}\n`,
    );
  }
}

await main();
