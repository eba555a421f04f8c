# attnscope, 简体中文: files

## 打开自己的模型

files-cannot-open = 无法打开：{ $message }
files-model-removed = 你的模型已从此浏览器中移除。
files-reading = 正在读取文件…
files-no-worker = 计算 worker 无法在此浏览器中启动，因此这里不能打开模型。
files-open-model = 打开模型…
files-open-model-title = 一个 .gguf 文件，或 Hugging Face 文件夹中的 config.json、tokenizer.json 和 model.safetensors；只在本地读取，从不上传
files-folder = 文件夹…
files-folder-title = Hugging Face 文件夹（config.json、tokenizer.json、model.safetensors）
files-forget = 移除
files-forget-title = 从此浏览器的存储中移除你的模型
files-architecture = 架构
files-layers = 层数
files-heads = 头数
files-parameters = 参数量
files-files = 文件
files-weights = 权重
files-memory = 所需内存
files-kv-heads = { $heads } 个，共用 { $kv } 个键值头
files-millions = { $millions } M
files-preflight-label = 你选择的模型
files-cannot-load = 无法加载：{ $why }。
files-loading = 正在加载你的模型…
files-load = 加载
files-close = 关闭
files-cancel = 取消
files-your-files = 你的文件
files-saved = 已保存

## 打开追踪文件

files-open-trace = 打开追踪文件…
files-open-trace-title = 由 attnscope Python 包或 `attnscope trace --out` 写出的 .safetensors 追踪文件；也可以拖放到页面上
files-trace-failed = 无法打开 { $name }：{ $why }
files-trace-info = { $model } · { $layers } 层 × { $heads } 个头 · { $tokens } 个 token · { $file }
files-trace-info-grouped = { $model } · { $layers } 层 × { $heads } 个头（共用 { $kv } 个键值头）· { $tokens } 个 token · { $file }
files-needs-queries-keys = 这个追踪文件只保存了注意力权重，没有查询和键，所以逐步标签页无法沿 q·k 跟随一个 token，Q·K 空间标签页也没有可放置的点。写入时带上查询和键（attnscope.trace(…, queries_keys=True)，或不加 --no-queries-keys 的 `attnscope trace --out`）就能看到它们。热力图、点阵图、所有头和目录标签页会显示它的权重。
files-needs-live-model = 课程会在你输入的句子上实时运行模型；追踪文件的文本是固定的。请在“模型”下为课程选择一个模型，或者在热力图、点阵图、所有头、目录和逐步标签页中查看这个追踪文件。

## 课堂：老师的页面带领，学生的页面跟随

class-hold = 开设课堂…
class-none = 这里没有课堂：课堂需要由老师笔记本电脑上运行的 { $command } 来提供本页面。
class-start = 开始上课
class-name = 课堂
class-followers = { $count } 名学生在跟随
class-connecting = 正在连接…
class-connection-lost = 连接已断开，正在重试…
class-link-refused = 被拒绝：{ $reason }
class-show-code = 显示加入码
class-end = 结束课堂
class-join-label = 加入课堂
class-qr-alt = 加入链接的二维码
class-code = 加入码
class-close = 关闭
class-waiting = 正在等待老师开放课堂…
class-reconnecting = 正在重新连接课堂…
class-refused = 课堂拒绝了连接：{ $reason }
class-following = 正在跟随老师
class-exploring = 正在自由探索
class-detach = 自己探索
class-rejoin = 回到老师这里

## 向全班提问

class-this-token = 这个 token
class-propose-token = 在第 { $layer } 层第 { $head } 个头中，“{ $query }”最关注哪个 token？
class-propose-head = 哪个头最关注前一个 token？
class-propose-choice = 关于这个头，哪一项是对的？
class-kind-token = 点选 token
class-kind-head = 选择头
class-kind-choice = 选项
class-kind-label = 问题类型
class-ask-room = 向全班提问
class-choices-placeholder = 每行一个选项（二到八个）
class-ask = 提问
class-step-question = 本步的问题
class-answered = { $count } 人已回答
class-reveal-model = 揭晓模型的答案
class-reveal = 揭晓答案
class-model-answer = 模型的答案：“{ $name }”，这一行中权重最大的
class-the-answer = 答案：“{ $name }”
class-end-question = 结束提问
class-question-label = 一个问题
class-answer-sent = 答案已发送：点另一个可以更改。
class-tap-answer = 点选你的答案；老师只看到人数，看不到是谁。

## 课程中准备好的问题，按步骤

class-step1 = 一个 token 的 q、k 和 v 是…
class-step1-a = 三个不同的 token
class-step1-b = 同一个 x 的三个投影
class-step1-c = 同一个向量，重复三次
class-step2 = 哪个键给“{ $q }”带来最大的分数 q · k？
class-step3 = 没有 ÷ √d_k 时，大分数的 softmax 会变得…
class-step3-a = 更平：处处权重相同
class-step3-b = 不变
class-step3-c = 更尖锐：几乎全部落在一个键上
class-step5 = 有了因果掩码，一个 token 会关注…
class-step5-a = 它自己和它之前的 token
class-step5-b = 只关注它之后的 token
class-step5-c = 每一个 token
class-step6 = 谁的值对“{ $q }”的输出贡献最大？
class-step7 = 哪个头最关注前一个 token？
class-step8 = 用 A 的哪一行来选择下一个 token？
class-step8-a = 第一个 token 的那一行
class-step8-b = 最后一个 token 的那一行
class-step8-c = 每一行都投票
class-step9 = 温度越高，下一个 token 的分布会变得…
class-step9-a = 更尖锐
class-step9-b = 不变
class-step9-c = 更平
class-step10 = 在相同的种子和设置下，采样写出的是…
class-step10-a = 相同的文本
class-step10-b = 每次都不同的文本
class-step11 = 每来一个新 token，键值缓存省去了重新计算…
class-step11-a = 新 token 的 q
class-step11-b = 什么也没省
class-step11-c = 之前每个 token 的 k 和 v
class-step12 = 在 Whisper 的交叉注意力中，键和值来自…
class-step12-a = 目前已写出的词
class-step12-b = 编码器的声音帧
class-step12-c = 下一个词
class-step13 = 词的时间来自…
class-step13-a = 所有头，一视同仁
class-step13-b = 少数几个对齐头
class-step13-c = 编码器的最后一层
class-step-other = “{ $q }”最关注哪个 token？
