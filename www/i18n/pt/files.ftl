# attnscope, Português: files

## Abrir um modelo próprio

files-cannot-open = Não foi possível abrir: { $message }
files-model-removed = Seu modelo foi removido deste navegador.
files-reading = Lendo os arquivos…
files-no-worker = O worker de cálculo não pôde iniciar neste navegador, então não é possível abrir modelos aqui.
files-open-model = Abrir um modelo…
files-open-model-title = Um arquivo .gguf, ou config.json, tokenizer.json e model.safetensors de uma pasta do Hugging Face; lidos aqui, nunca enviados
files-folder = Pasta…
files-folder-title = Uma pasta do Hugging Face (config.json, tokenizer.json, model.safetensors)
files-forget = Esquecer
files-forget-title = Remover seu modelo do armazenamento deste navegador
files-architecture = Arquitetura
files-layers = Camadas
files-heads = Cabeças
files-parameters = Parâmetros
files-files = Arquivos
files-weights = Pesos
files-memory = Memória necessária
files-kv-heads = { $heads } sobre { $kv ->
    [one] { $kv } cabeça de chave e valor
   *[other] { $kv } cabeças de chave e valor
}
files-millions = { $millions } M
files-preflight-label = O modelo escolhido
files-cannot-load = Não é possível carregá-lo: { $why }.
files-loading = Carregando seu modelo…
files-load = Carregar
files-close = Fechar
files-cancel = Cancelar
files-your-files = seus arquivos
files-saved = salvo

## Abrir um arquivo de rastreamento (trace)

files-open-trace = Abrir um trace…
files-open-trace-title = Um arquivo de trace .safetensors gerado pelo pacote Python attnscope ou por `attnscope trace --out`; ou solte um na página
files-trace-failed = Não foi possível abrir { $name }: { $why }
files-trace-info = { $model } · { $layers ->
    [one] { $layers } camada
   *[other] { $layers } camadas
} × { $heads ->
    [one] { $heads } cabeça
   *[other] { $heads } cabeças
} · { $tokens ->
    [one] { $tokens } token
   *[other] { $tokens } tokens
} · { $file }
files-trace-info-grouped = { $model } · { $layers ->
    [one] { $layers } camada
   *[other] { $layers } camadas
} × { $heads } cabeças sobre { $kv ->
    [one] { $kv } cabeça de chave e valor
   *[other] { $kv } cabeças de chave e valor
} · { $tokens ->
    [one] { $tokens } token
   *[other] { $tokens } tokens
} · { $file }
files-needs-queries-keys = Este arquivo de trace guarda apenas os pesos de atenção, sem consultas nem chaves: o Passo a passo não pode seguir um token por q·k, e o Espaço Q·K não tem pontos para posicionar. Gere-o com consultas e chaves (attnscope.trace(…, queries_keys=True), ou `attnscope trace --out` sem --no-queries-keys) para vê-los. As abas Mapa de calor, Grade de pontos, Todas as cabeças e Catálogo mostram seus pesos.
files-needs-live-model = A lição executa um modelo ao vivo sobre uma frase que você digita; o texto de um arquivo de trace é fixo. Escolha um modelo em Modelo para a lição, ou explore este trace nas abas Mapa de calor, Grade de pontos, Todas as cabeças, Catálogo e Passo a passo.

## Uma aula: a página do professor conduz, as dos alunos acompanham

class-hold = Dar uma aula…
class-none = Não há aula aqui: as aulas acontecem onde a página é servida por { $command }, executado no laptop do professor.
class-start = Iniciar uma aula
class-name = Aula
class-followers = { $count ->
    [one] { $count } aluno acompanha
   *[other] { $count } alunos acompanham
}
class-connecting = conectando…
class-connection-lost = conexão perdida, tentando de novo…
class-link-refused = recusado: { $reason }
class-show-code = Mostrar o código de entrada
class-end = Encerrar a aula
class-join-label = Entrar na aula
class-qr-alt = QR code do link de entrada
class-code = Código
class-close = Fechar
class-waiting = Aguardando o professor abrir a aula…
class-reconnecting = Reconectando à aula…
class-refused = A aula recusou: { $reason }
class-following = Acompanhando o professor
class-exploring = Explorando por conta própria
class-detach = Explorar por conta própria
class-rejoin = Voltar ao professor

## Perguntas à turma

class-this-token = este token
class-propose-token = A qual token “{ $query }” presta mais atenção na camada { $layer }, cabeça { $head }?
class-propose-head = Qual cabeça presta mais atenção ao token anterior?
class-propose-choice = O que é verdade sobre esta cabeça?
class-kind-token = Tocar um token
class-kind-head = Escolher cabeça
class-kind-choice = Opções
class-kind-label = Tipo de pergunta
class-ask-room = Perguntar à turma
class-choices-placeholder = Uma opção por linha (de duas a oito)
class-ask = Perguntar
class-step-question = A pergunta deste passo
class-answered = { $count ->
    [one] { $count } resposta
   *[other] { $count } respostas
}
class-reveal-model = Revelar a resposta do modelo
class-reveal = Revelar a resposta
class-model-answer = O modelo: “{ $name }”, o maior peso da linha
class-the-answer = A resposta: “{ $name }”
class-end-question = Encerrar a pergunta
class-question-label = Uma pergunta
class-answer-sent = Resposta enviada: toque em outra para mudar.
class-tap-answer = Toque na sua resposta; o professor vê a contagem, não quem respondeu.

## As perguntas prontas da lição, por passo

class-step1 = O q, o k e o v de um token são…
class-step1-a = três tokens diferentes
class-step1-b = três projeções do mesmo x
class-step1-c = o mesmo vetor, três vezes
class-step2 = Qual chave dá a “{ $q }” a maior pontuação q · k?
class-step3 = Sem o ÷ √d_k, o softmax de pontuações grandes fica…
class-step3-a = mais plano: o mesmo peso em todo lugar
class-step3-b = igual
class-step3-c = mais agudo: quase tudo em uma chave
class-step5 = Com a máscara causal, um token presta atenção…
class-step5-a = a si mesmo e aos tokens anteriores
class-step5-b = só aos tokens seguintes
class-step5-c = a todos os tokens
class-step6 = O valor de qual token mais contribui para a saída de “{ $q }”?
class-step7 = Qual cabeça olha mais para o token anterior?
class-step8 = Qual linha de A é usada para escolher o próximo token?
class-step8-a = a do primeiro token
class-step8-b = a do último token
class-step8-c = todas as linhas votam
class-step9 = Uma temperatura mais alta deixa a distribuição do próximo token…
class-step9-a = mais aguda
class-step9-b = igual
class-step9-c = mais plana
class-step10 = Com a mesma semente e as mesmas configurações, a amostragem escreve…
class-step10-a = o mesmo texto
class-step10-b = um texto diferente a cada vez
class-step11 = A cada novo token, o cache de chaves e valores evita recalcular…
class-step11-a = o q do novo token
class-step11-b = nada
class-step11-c = o k e o v de todos os tokens anteriores
class-step12 = Na atenção cruzada do Whisper, as chaves e os valores vêm…
class-step12-a = das palavras escritas até agora
class-step12-b = dos quadros de som do codificador
class-step12-c = da próxima palavra
class-step13 = Os tempos das palavras vêm…
class-step13-a = de todas as cabeças por igual
class-step13-b = das poucas cabeças de alinhamento
class-step13-c = da última camada do codificador
class-step-other = A qual token “{ $q }” presta mais atenção?
